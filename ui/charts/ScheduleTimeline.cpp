#include "charts/ScheduleTimeline.h"

#include "cost/PlanEvaluation.h"

#include <algorithm>

namespace tapestry {

namespace {

struct ScheduledOp {
    bool backward = false;
    int chunk = 0;  // virtual chunk of the stage
    int microBatch = 0;
};

// Megatron-LM's interleaved order: groups of p micro-batches, each group through the
// stage's chunks in turn (backward: the chunks in reverse). With one chunk it is
// micro-batch order.
std::vector<ScheduledOp> chunkedOrder(bool backward, int stages, int chunks, int microBatches)
{
    std::vector<ScheduledOp> ops;
    for (int first = 0; first < microBatches; first += stages) {
        const int size = std::min(stages, microBatches - first);
        for (int c = 0; c < chunks; ++c) {
            for (int j = 0; j < size; ++j)
                ops.push_back({backward, backward ? chunks - 1 - c : c, first + j});
        }
    }
    return ops;
}

std::vector<ScheduledOp> stageOrder(const PipelineLayout& layout, int stage, int microBatches)
{
    const int p = layout.stages;
    const int v = layout.virtualStages;
    const std::vector<ScheduledOp> forwards = chunkedOrder(false, p, v, microBatches);
    const std::vector<ScheduledOp> backwards = chunkedOrder(true, p, v, microBatches);
    const int total = static_cast<int>(forwards.size());
    int warmUp = total;
    if (layout.schedule == PipelineSchedule::OneFOneB)
        warmUp = std::min(p - stage - 1, total);
    else if (layout.schedule == PipelineSchedule::Interleaved)
        warmUp = std::min((p - stage - 1) * 2 + (v - 1) * p, total);
    std::vector<ScheduledOp> ops(forwards.begin(), forwards.begin() + warmUp);
    for (int k = 0; warmUp + k < total; ++k) {
        ops.push_back(forwards[warmUp + k]);
        ops.push_back(backwards[k]);
    }
    ops.insert(ops.end(), backwards.begin() + (total - warmUp), backwards.end());
    return ops;
}

}  // namespace

std::vector<const TimelineBox*> ScheduleTimeline::stageBoxes(int stage) const
{
    std::vector<const TimelineBox*> result;
    for (const TimelineBox& box : boxes) {
        if (box.stage == stage)
            result.push_back(&box);
    }
    return result;
}

ScheduleTimeline scheduleTimeline(const PipelineLayout& layout, const PlanEvaluation& evaluation)
{
    ScheduleTimeline timeline;
    timeline.layout = layout;
    const int p = layout.stages;
    const int v = layout.virtualStages;
    const int m = std::max(1, evaluation.microBatches);
    timeline.microBatches = m;
    timeline.modelSeconds = evaluation.total.time.stepSeconds();
    if (static_cast<int>(evaluation.stages.size()) != p)
        return timeline;

    // Per stage: forward and backward of one micro-batch, a chunk's share, one send.
    std::vector<std::vector<double>> share(p);
    for (int s = 0; s < p; ++s) {
        const StageCost& stage = evaluation.stages[s];
        const TimeBreakdown& time = stage.cost.time;
        const double sends = time.pipelineSendSeconds / m;
        const double work = stage.microBatchSeconds - sends;
        const double recompute = time.recomputeSeconds / m;
        timeline.forwardSeconds.push_back((work - recompute) / 3);
        timeline.backwardSeconds.push_back(work - timeline.forwardSeconds.back());
        timeline.bubbleSeconds.push_back(time.bubbleSeconds);
        timeline.blockRanges.push_back(stage.blockRanges);
        double blocks = 0;
        for (const auto& [first, end] : stage.blockRanges)
            blocks += static_cast<double>(end - first);
        int sendsPerMicroBatch = 0;
        for (int c = 0; c < static_cast<int>(stage.blockRanges.size()); ++c) {
            const auto& [first, end] = stage.blockRanges[c];
            share[s].push_back(blocks > 0 ? static_cast<double>(end - first) / blocks : 1.0 / v);
            const int global = c * p + s;
            sendsPerMicroBatch += (global + 1 < p * v ? 1 : 0) + (global > 0 ? 1 : 0);
        }
        timeline.sendSeconds.push_back(sendsPerMicroBatch > 0 ? sends / sendsPerMicroBatch : 0.0);
        if (static_cast<int>(share[s].size()) != v)
            return timeline;
    }

    // List scheduling: each stage runs its next op as soon as it is free and the op's
    // input has arrived (-1: not yet produced).
    const int chunks = p * v;
    const auto at = [m](int chunk, int microBatch) { return static_cast<std::size_t>(chunk) * m + microBatch; };
    std::vector<double> forwardInput(static_cast<std::size_t>(chunks) * m, -1.0);
    std::vector<double> backwardInput(static_cast<std::size_t>(chunks) * m, -1.0);
    for (int i = 0; i < m; ++i)
        forwardInput[at(0, i)] = 0;
    std::vector<std::vector<ScheduledOp>> orders;
    for (int s = 0; s < p; ++s)
        orders.push_back(stageOrder(layout, s, m));
    std::vector<std::size_t> next(p, 0);
    std::vector<double> free(p, 0.0);
    std::vector<std::vector<TimelineBox>> rows(p);
    bool progress = true;
    while (progress) {
        progress = false;
        for (int s = 0; s < p; ++s) {
            for (; next[s] < orders[s].size(); ++next[s]) {
                const ScheduledOp& op = orders[s][next[s]];
                const int chunk = op.chunk * p + s;
                const double input = (op.backward ? backwardInput : forwardInput)[at(chunk, op.microBatch)];
                if (input < 0)
                    break;
                progress = true;
                TimelineBox box;
                box.kind = op.backward ? TimelineBox::Kind::Backward : TimelineBox::Kind::Forward;
                box.stage = s;
                box.microBatch = op.microBatch;
                box.virtualChunk = op.chunk;
                box.start = std::max(free[s], input);
                box.end = box.start + (op.backward ? timeline.backwardSeconds[s] : timeline.forwardSeconds[s]) *
                                          share[s][op.chunk];
                rows[s].push_back(box);
                free[s] = box.end;
                const int receiver = op.backward ? chunk - 1 : chunk + 1;
                if (receiver < 0 || receiver >= chunks) {
                    if (!op.backward)  // the last chunk's backward starts from its own forward
                        backwardInput[at(chunk, op.microBatch)] = box.end;
                    continue;
                }
                TimelineBox send = box;
                send.kind = TimelineBox::Kind::Send;
                send.start = box.end;
                send.end = box.end + timeline.sendSeconds[s];
                rows[s].push_back(send);
                free[s] = send.end;
                (op.backward ? backwardInput : forwardInput)[at(receiver, op.microBatch)] = send.end;
            }
        }
    }
    // A pass that moved nothing ends the loop: done, or stuck on an input never produced.
    for (int s = 0; s < p; ++s)
        timeline.complete = timeline.complete && next[s] == orders[s].size();

    // Once per step, after the stage's last backward: the gradient reduction's exposed
    // part, then the optimizer.
    for (int s = 0; s < p; ++s) {
        const TimeBreakdown& time = evaluation.stages[s].cost.time;
        TimelineBox sync;
        sync.kind = TimelineBox::Kind::GradientSync;
        sync.stage = s;
        sync.start = free[s];
        sync.end = sync.start + std::max(0.0, time.dataParallelSeconds - time.hiddenSeconds);
        TimelineBox optimizer = sync;
        optimizer.kind = TimelineBox::Kind::Optimizer;
        optimizer.start = sync.end;
        optimizer.end = optimizer.start + time.optimizerSeconds;
        rows[s].push_back(sync);
        rows[s].push_back(optimizer);
        timeline.seconds = std::max(timeline.seconds, optimizer.end);
        timeline.boxes.insert(timeline.boxes.end(), rows[s].begin(), rows[s].end());
    }
    return timeline;
}

}  // namespace tapestry
