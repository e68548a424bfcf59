#include "cost/PipelineCost.h"

#include "base/Error.h"

#include <algorithm>

namespace tapestry {

const char* pipelineScheduleName(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe: return "gpipe";
    case PipelineSchedule::OneFOneB: return "1f1b";
    case PipelineSchedule::Interleaved: return "interleaved";
    }
    return "1f1b";
}

std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name)
{
    for (const PipelineSchedule s : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved}) {
        if (name == pipelineScheduleName(s))
            return s;
    }
    return std::nullopt;
}

namespace {

// The blocks in model order: each top-level family instance's nodes.
std::vector<const BlockInstance*> blocksInOrder(const FamilyTable& families)
{
    std::vector<const BlockInstance*> blocks;
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;
        for (const BlockInstance& instance : family.instances)
            blocks.push_back(&instance);
    }
    std::sort(blocks.begin(), blocks.end(),
              [](const BlockInstance* a, const BlockInstance* b) { return a->nodes.front() < b->nodes.front(); });
    return blocks;
}

}  // namespace

PipelineEvaluation evaluatePipeline(const CostModel& stageCosts, const CoarseGraph& coarse, const FamilyTable& families,
                                    const Plan& plan, const PipelineShape& shape, const LinkSpec& boundaryLink)
{
    const int p = std::max(1, shape.stages);
    const int v = shape.schedule == PipelineSchedule::Interleaved ? std::max(1, shape.virtualStages) : 1;
    const std::vector<const BlockInstance*> blocks = blocksInOrder(families);
    const std::size_t chunks = static_cast<std::size_t>(p) * static_cast<std::size_t>(v);
    if (blocks.size() < chunks)
        throw Error(ErrorCode::InvalidArgument, {},
                    "a pipeline of " + std::to_string(p) + " stages x " + std::to_string(v) + " chunks needs " +
                        std::to_string(chunks) + " blocks; the model has " + std::to_string(blocks.size()));

    const PlanEvaluation evaluation = stageCosts.evaluate(plan);
    const double m = stageCosts.microSteps();
    // Which chunk each coarse node belongs to: blocks by their position, the nodes
    // before the first block to chunk 0, every other node outside blocks to the last.
    std::vector<std::size_t> chunkOfBlock(blocks.size());
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t begin = c * blocks.size() / chunks;
        const std::size_t end = (c + 1) * blocks.size() / chunks;
        for (std::size_t b = begin; b < end; ++b)
            chunkOfBlock[b] = c;
    }
    std::vector<std::size_t> chunkOfNode(coarse.nodes.size(), chunks - 1);
    const CoarseNodeId firstBlockNode = blocks.empty() ? CoarseNodeId{} : blocks.front()->nodes.front();
    for (const CoarseNode& node : coarse.nodes) {
        if (firstBlockNode.isValid() && node.id < firstBlockNode)
            chunkOfNode[node.id.index()] = 0;
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (const CoarseNodeId id : blocks[b]->nodes)
            chunkOfNode[id.index()] = chunkOfBlock[b];
    }

    PipelineEvaluation result;
    result.microBatches = static_cast<int>(m);
    result.stages.resize(static_cast<std::size_t>(p));
    for (std::size_t c = 0; c < chunks; ++c) {
        PipelineStage& stage = result.stages[c % static_cast<std::size_t>(p)];
        stage.blockRanges.emplace_back(c * blocks.size() / chunks, (c + 1) * blocks.size() / chunks);
        // One micro-batch's activation forward out of the chunk and its gradient back in.
        const std::size_t firstBlock = stage.blockRanges.back().first;
        const std::size_t endBlock = stage.blockRanges.back().second;
        if (endBlock < blocks.size()) {
            const double bytes = stageCosts.blockInputBytesPerDevice(plan, blocks[endBlock]->nodes.front());
            stage.p2pSeconds += bytes / boundaryLink.bytesPerSecond + boundaryLink.latencySeconds;
        }
        if (c > 0) {
            const double bytes = stageCosts.blockInputBytesPerDevice(plan, blocks[firstBlock]->nodes.front());
            stage.p2pSeconds += bytes / boundaryLink.bytesPerSecond + boundaryLink.latencySeconds;
        }
    }
    std::vector<double> activations(static_cast<std::size_t>(p), 0.0);
    double transient = 0;
    for (const CoarseNode& node : coarse.nodes) {
        PipelineStage& stage = result.stages[chunkOfNode[node.id.index()] % static_cast<std::size_t>(p)];
        const CostBreakdown& cost = evaluation.perNode[node.id.index()];
        const TimeBreakdown& t = cost.time;
        // Per micro-batch: the compute and the tensor-parallel traffic; once per step:
        // the optimizer and what of the data-parallel traffic stays exposed.
        stage.microBatchSeconds += (t.computeSeconds - t.optimizerSeconds +
                                    t.communicationSeconds() - t.dataParallelSeconds) / m;
        stage.stepSeconds += t.optimizerSeconds + t.dataParallelSeconds - t.hiddenSeconds;
        stage.memory.parameters += cost.memory.parameters;
        stage.memory.gradients += cost.memory.gradients;
        stage.memory.optimizerStates += cost.memory.optimizerStates;
        activations[chunkOfNode[node.id.index()] % static_cast<std::size_t>(p)] += cost.memory.activations;
        transient = std::max(transient, cost.memory.transient);
    }
    double slowest = 0;
    double slowestStep = 0;
    for (std::size_t s = 0; s < result.stages.size(); ++s) {
        PipelineStage& stage = result.stages[s];
        stage.microBatchSeconds += stage.p2pSeconds;
        slowest = std::max(slowest, stage.microBatchSeconds);
        slowestStep = std::max(slowestStep, stage.stepSeconds);
        const double later = static_cast<double>(p) - static_cast<double>(s);  // 1F1B warm-up depth of stage s
        double inFlight = 0;
        switch (shape.schedule) {
        case PipelineSchedule::GPipe: inFlight = m; break;
        case PipelineSchedule::OneFOneB: inFlight = std::min(m, later); break;
        case PipelineSchedule::Interleaved:
            inFlight = std::min(m, later) * (1.0 + (p - 1.0) / (static_cast<double>(p) * v));
            break;
        }
        stage.memory.activations = activations[s] * inFlight;
        stage.memory.transient = transient;
        result.peakMemoryBytes = std::max(result.peakMemoryBytes, stage.memory.total());
    }
    const double fill = shape.schedule == PipelineSchedule::Interleaved ? (p - 1.0) / v : p - 1.0;
    result.bubbleSeconds = fill * slowest;
    result.stepSeconds = (m + fill) * slowest + slowestStep;
    return result;
}

}  // namespace tapestry
