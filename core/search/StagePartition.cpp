#include "search/StagePartition.h"

#include "cost/PipelineCost.h"

#include <algorithm>
#include <optional>

namespace tapestry {

namespace {

// What a range of nodes costs one stage: per micro-batch time, states, activations of
// one micro-batch.
struct Load {
    double seconds = 0;
    double states = 0;
    double activations = 0;

    void add(const Load& other)
    {
        seconds += other.seconds;
        states += other.states;
        activations += other.activations;
    }
};

Load loadOf(const CostBreakdown& cost, double microBatches)
{
    const TimeBreakdown& t = cost.time;
    const MemoryBreakdown& m = cost.memory;
    return {(t.computeSeconds - t.optimizerSeconds + t.communicationSeconds() - t.dataParallelSeconds) / microBatches,
            m.parameters + m.gradients + m.optimizerStates, m.activations};
}

// The chunk starts over blocks of loads `block`, the nodes before them costing `first`
// and those after `last` (balancedChunkStarts).
std::vector<std::size_t> balancedStarts(const std::vector<Load>& block, const Load& first, const Load& last,
                                        double transient, const PipelineLayout& layout, double m,
                                        double memoryLimitBytes)
{
    const std::size_t n = block.size();
    const auto chunks = static_cast<std::size_t>(layout.chunks());
    if (n < chunks)
        return chunkStarts(layout, n);  // throws, saying why
    const bool checkMemory = layout.virtualStages == 1;
    auto fitsMemory = [&](const Load& load, std::size_t chunk) {
        const double inFlight = microBatchesInFlight(layout, static_cast<int>(chunk % layout.stages), m);
        return !checkMemory || load.states + load.activations * inFlight + transient <= memoryLimitBytes;
    };

    // Chunks filled greedily from the front, each as long as `bound` and the memory
    // allow: the greedy ends are the furthest any feasible partition reaches, so the
    // bound is feasible exactly when the greedy fills every chunk.
    auto partition = [&](double bound, bool memory) -> std::optional<std::vector<std::size_t>> {
        std::vector<std::size_t> starts;
        std::size_t next = 0;
        for (std::size_t c = 0; c < chunks; ++c) {
            starts.push_back(next);
            Load load = c == 0 ? first : Load{};
            const std::size_t furthest = n - (chunks - 1 - c);  // leave a block for every later chunk
            if (c + 1 == chunks) {
                for (; next < n; ++next)
                    load.add(block[next]);
                load.add(last);
                if (load.seconds > bound || (memory && !fitsMemory(load, c)))
                    return std::nullopt;
                break;
            }
            while (next < furthest) {
                Load longer = load;
                longer.add(block[next]);
                if (longer.seconds > bound || (memory && !fitsMemory(longer, c)))
                    break;
                load = longer;
                ++next;
            }
            if (next == starts.back())
                return std::nullopt;
        }
        return starts;
    };

    bool memory = true;
    double high = first.seconds + last.seconds;
    for (const Load& b : block)
        high += b.seconds;
    if (!partition(high, memory))
        memory = false;  // no partition fits: balance the time alone
    double low = 0;
    for (int i = 0; i < 60 && high - low > 1e-9 * high; ++i) {
        const double mid = (low + high) / 2;
        (partition(mid, memory) ? high : low) = mid;
    }
    return *partition(high, memory);
}

}  // namespace

std::vector<std::size_t> balancedChunkStarts(const PlanEvaluation& evaluation, const PipelineLayout& layout,
                                             const CoarseGraph& coarse, const FamilyTable& families, int microBatches,
                                             double memoryLimitBytes)
{
    const std::vector<const BlockInstance*> blocks = modelBlocks(families);
    const std::size_t n = blocks.size();
    if (n < static_cast<std::size_t>(layout.chunks()))
        return chunkStarts(layout, n);  // throws, saying why
    const double m = std::max(1, microBatches);
    std::vector<Load> block(n);
    std::vector<bool> inBlock(coarse.nodes.size(), false);
    for (std::size_t b = 0; b < n; ++b) {
        for (const CoarseNodeId id : blocks[b]->nodes) {
            block[b].add(loadOf(evaluation.perNode[id.index()], m));
            inBlock[id.index()] = true;
        }
    }
    Load first;  // the nodes before the first block (embedding)
    Load last;   // the other nodes outside blocks (head, loss)
    double transient = 0;
    const CoarseNodeId firstBlockNode = blocks.front()->nodes.front();
    for (const CoarseNode& node : coarse.nodes) {
        transient = std::max(transient, evaluation.perNode[node.id.index()].memory.transient);
        if (!inBlock[node.id.index()])
            (node.id < firstBlockNode ? first : last).add(loadOf(evaluation.perNode[node.id.index()], m));
    }
    return balancedStarts(block, first, last, transient, layout, m, memoryLimitBytes);
}

std::vector<std::size_t> balancedChunkStarts(const CostModel::BlockCosts& costs, const PipelineLayout& layout,
                                             int microBatches, double memoryLimitBytes)
{
    const double m = std::max(1, microBatches);
    std::vector<Load> block;
    for (const CostBreakdown& cost : costs.blocks)
        block.push_back(loadOf(cost, m));
    return balancedStarts(block, loadOf(costs.before, m), loadOf(costs.after, m), costs.transient, layout, m,
                          memoryLimitBytes);
}

}  // namespace tapestry
