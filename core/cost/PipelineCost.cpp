#include "cost/PipelineCost.h"

#include <algorithm>

namespace tapestry {

double microBatchesInFlight(const PipelineLayout& layout, int stage, double microBatches)
{
    const double p = layout.stages;
    const double later = p - stage;  // the 1F1B warm-up depth of the stage
    switch (layout.schedule) {
    case PipelineSchedule::GPipe: return microBatches;
    case PipelineSchedule::OneFOneB: return std::min(microBatches, later);
    case PipelineSchedule::Interleaved:
        return std::min(microBatches, later) * (1.0 + (p - 1.0) / (p * layout.virtualStages));
    }
    return microBatches;
}

void StageNodes::add(const CostBreakdown& cost, double microBatches, double count)
{
    const TimeBreakdown& t = cost.time;
    time.add(t, count);  // count 1 adds exactly what add(t) adds
    // Per micro-batch: the compute and the tensor-parallel traffic; once per step:
    // the optimizer and what of the data-parallel traffic stays exposed.
    microBatchSeconds +=
        count * (t.computeSeconds - t.optimizerSeconds + t.communicationSeconds() - t.dataParallelSeconds) /
        microBatches;
    perStepSeconds += count * (t.optimizerSeconds + t.dataParallelSeconds - t.hiddenSeconds);
    memory.parameters += count * cost.memory.parameters;
    memory.gradients += count * cost.memory.gradients;
    memory.optimizerStates += count * cost.memory.optimizerStates;
    memory.activations += count * cost.memory.activations;
}

void pricePipelineStages(PlanEvaluation& evaluation, const Plan& plan, const CoarseGraph& coarse,
                         const FamilyTable& families, int microBatches, const std::vector<double>& boundarySeconds,
                         bool sendsOverlap)
{
    const PipelineLayout& layout = plan.pipeline;
    const std::vector<std::size_t> chunkOfNode = chunkOfNodes(layout, families, coarse.nodes.size());
    const double m = std::max(1, microBatches);
    std::vector<StageNodes> stages(static_cast<std::size_t>(layout.stages));
    for (StageNodes& stage : stages)
        stage.time.byAxis.assign(evaluation.total.time.byAxis.size(), 0.0);
    double transient = 0;
    for (const CoarseNode& node : coarse.nodes) {
        const CostBreakdown& cost = evaluation.perNode[node.id.index()];
        stages[chunkOfNode[node.id.index()] % stages.size()].add(cost, m);
        transient = std::max(transient, cost.memory.transient);
    }
    priceStageNodes(evaluation, layout, modelBlocks(families).size(), std::move(stages), transient, microBatches,
                    boundarySeconds, sendsOverlap);
}

bool pipelineSendsOverlapped(const PipelineLayout& layout, bool sendOverlap)
{
    return sendOverlap && layout.active() && layout.schedule == PipelineSchedule::Interleaved;
}

void priceStageNodes(PlanEvaluation& evaluation, const PipelineLayout& layout, std::size_t blockCount,
                     std::vector<StageNodes> nodes, double transient, int microBatches,
                     const std::vector<double>& boundarySeconds, bool sendsOverlap)
{
    const auto p = static_cast<std::size_t>(layout.stages);
    const std::vector<std::size_t> starts = chunkStarts(layout, blockCount);
    const std::size_t chunks = starts.size();
    const double m = std::max(1, microBatches);
    const bool sendsHidden = pipelineSendsOverlapped(layout, sendsOverlap);

    std::vector<StageCost> stages(p);
    std::vector<double> p2p(p, 0.0);
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t s = c % p;
        const std::size_t end = c + 1 < chunks ? starts[c + 1] : blockCount;
        stages[s].blockRanges.emplace_back(starts[c], end);
        // One micro-batch's activation forward out of the chunk and its gradient back in.
        auto send = [&](std::size_t block) { return 2 * boundarySeconds.at(block); };
        if (end < blockCount)
            p2p[s] += send(end) / 2;
        if (c > 0)
            p2p[s] += send(starts[c]) / 2;
    }
    double slowest = 0;
    double slowestFilling = 0;  // a fill slot: compute and every send
    double slowestStep = 0;
    for (std::size_t s = 0; s < p; ++s) {
        StageCost& stage = stages[s];
        stage.cost.time = nodes[s].time;
        stage.cost.memory.parameters = nodes[s].memory.parameters;
        stage.cost.memory.gradients = nodes[s].memory.gradients;
        stage.cost.memory.optimizerStates = nodes[s].memory.optimizerStates;
        const double exposed = sendsHidden ? std::max(0.0, p2p[s] - nodes[s].microBatchSeconds) : p2p[s];
        stage.microBatchSeconds = nodes[s].microBatchSeconds + exposed;
        stage.cost.time.pipelineSendSeconds = m * exposed;
        slowest = std::max(slowest, stage.microBatchSeconds);
        slowestFilling = std::max(slowestFilling, nodes[s].microBatchSeconds + p2p[s]);
        slowestStep = std::max(slowestStep, nodes[s].perStepSeconds);
    }
    const double fill = layout.schedule == PipelineSchedule::Interleaved
                            ? (layout.stages - 1.0) / layout.virtualStages
                            : layout.stages - 1.0;
    const double step = m * slowest + fill * slowestFilling + slowestStep;
    std::size_t bottleneck = 0;
    std::size_t fullest = 0;
    for (std::size_t s = 0; s < p; ++s) {
        StageCost& stage = stages[s];
        stage.inFlightMicroBatches = microBatchesInFlight(layout, static_cast<int>(s), m);
        stage.cost.memory.activations = nodes[s].memory.activations * stage.inFlightMicroBatches;
        stage.cost.memory.transient = transient;
        stage.cost.time.bubbleSeconds = std::max(0.0, step - (m * stage.microBatchSeconds + nodes[s].perStepSeconds));
        if (stage.microBatchSeconds > stages[bottleneck].microBatchSeconds)
            bottleneck = s;
        if (stage.cost.memory.total() > stages[fullest].cost.memory.total())
            fullest = s;
    }
    evaluation.total.time = stages[bottleneck].cost.time;
    evaluation.total.memory = stages[fullest].cost.memory;
    evaluation.microBatches = static_cast<int>(m);
    evaluation.stages = std::move(stages);
}

}  // namespace tapestry
