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

void pricePipelineStages(PlanEvaluation& evaluation, const Plan& plan, const CoarseGraph& coarse,
                         const FamilyTable& families, int microBatches, const std::vector<double>& boundarySeconds)
{
    const PipelineLayout& layout = plan.pipeline;
    const auto p = static_cast<std::size_t>(layout.stages);
    const std::vector<const BlockInstance*> blocks = modelBlocks(families);
    const std::vector<std::size_t> starts = chunkStarts(layout, blocks.size());
    const std::size_t chunks = starts.size();
    const double m = std::max(1, microBatches);

    const std::vector<std::size_t> chunkOfNode = chunkOfNodes(layout, families, coarse.nodes.size());

    std::vector<StageCost> stages(p);
    const std::size_t axes = evaluation.total.time.byAxis.size();
    std::vector<double> perStep(p, 0.0);
    std::vector<double> p2p(p, 0.0);
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t s = c % p;
        const std::size_t end = c + 1 < chunks ? starts[c + 1] : blocks.size();
        stages[s].blockRanges.emplace_back(starts[c], end);
        // One micro-batch's activation forward out of the chunk and its gradient back in.
        auto send = [&](std::size_t block) { return 2 * boundarySeconds.at(block); };
        if (end < blocks.size())
            p2p[s] += send(end) / 2;
        if (c > 0)
            p2p[s] += send(starts[c]) / 2;
    }
    std::vector<double> activations(p, 0.0);
    double transient = 0;
    for (StageCost& stage : stages)
        stage.cost.time.byAxis.assign(axes, 0.0);
    for (const CoarseNode& node : coarse.nodes) {
        const std::size_t s = chunkOfNode[node.id.index()] % p;
        StageCost& stage = stages[s];
        const CostBreakdown& cost = evaluation.perNode[node.id.index()];
        const TimeBreakdown& t = cost.time;
        stage.cost.time.add(t);
        // Per micro-batch: the compute and the tensor-parallel traffic; once per step:
        // the optimizer and what of the data-parallel traffic stays exposed.
        stage.microBatchSeconds +=
            (t.computeSeconds - t.optimizerSeconds + t.communicationSeconds() - t.dataParallelSeconds) / m;
        perStep[s] += t.optimizerSeconds + t.dataParallelSeconds - t.hiddenSeconds;
        stage.cost.memory.parameters += cost.memory.parameters;
        stage.cost.memory.gradients += cost.memory.gradients;
        stage.cost.memory.optimizerStates += cost.memory.optimizerStates;
        activations[s] += cost.memory.activations;
        transient = std::max(transient, cost.memory.transient);
    }
    double slowest = 0;
    double slowestStep = 0;
    for (std::size_t s = 0; s < p; ++s) {
        stages[s].microBatchSeconds += p2p[s];
        stages[s].cost.time.pipelineSendSeconds = m * p2p[s];
        slowest = std::max(slowest, stages[s].microBatchSeconds);
        slowestStep = std::max(slowestStep, perStep[s]);
    }
    const double fill = layout.schedule == PipelineSchedule::Interleaved
                            ? (layout.stages - 1.0) / layout.virtualStages
                            : layout.stages - 1.0;
    const double step = (m + fill) * slowest + slowestStep;
    std::size_t bottleneck = 0;
    std::size_t fullest = 0;
    for (std::size_t s = 0; s < p; ++s) {
        StageCost& stage = stages[s];
        stage.inFlightMicroBatches = microBatchesInFlight(layout, static_cast<int>(s), m);
        stage.cost.memory.activations = activations[s] * stage.inFlightMicroBatches;
        stage.cost.memory.transient = transient;
        stage.cost.time.bubbleSeconds = std::max(0.0, step - (m * stage.microBatchSeconds + perStep[s]));
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
