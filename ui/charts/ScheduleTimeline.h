#pragma once

#include "plan/PipelineLayout.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace tapestry {

struct PlanEvaluation;

// One box of a pipeline's step on one stage's devices.
struct TimelineBox {
    enum class Kind { Forward, Backward, Send, GradientSync, Optimizer };
    Kind kind = Kind::Forward;
    int stage = 0;
    int microBatch = -1;    // forward, backward and send boxes
    int virtualChunk = 0;   // which of the stage's v chunks (forward, backward, send)
    double start = 0;       // seconds from the step's start
    double end = 0;
};

// A priced pipelined plan's step laid out in time, one row per stage: each stage runs
// its forward and backward micro-batch chunks in the order of the plan's schedule
// (GPipe: all forwards, then all backwards; 1F1B: p - s - 1 warm-up forwards, then one
// forward and one backward alternately, then the remaining backwards; interleaved:
// Megatron-LM's order over groups of p micro-batches and v chunks), each as soon as its
// stage is free and its input has arrived; after its last backward the stage reduces
// its gradients (the exposed part) and updates its parameters.
// Durations come from the evaluation's stages: a micro-batch's work without its sends
// is split forward 1/3, backward 2/3 (a matmul's backward is two GEMMs of the forward's
// size; the cost model keeps no per-stage split), recomputation added to the backward;
// a chunk takes its share by block count; each send occupies its sender for the stage's
// send time per micro-batch divided by its sends per micro-batch.
struct ScheduleTimeline {
    PipelineLayout layout;
    int microBatches = 1;
    std::vector<TimelineBox> boxes;  // stage by stage, each in time order
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> blockRanges;  // per stage: [first, end) per chunk
    std::vector<double> forwardSeconds;   // per stage: one micro-batch through all its chunks
    std::vector<double> backwardSeconds;  // same, backward with recomputation
    std::vector<double> sendSeconds;      // per stage: one send
    std::vector<double> bubbleSeconds;    // per stage, as the cost model counts it
    double seconds = 0;       // the laid-out step (the last stage to finish)
    double modelSeconds = 0;  // the cost model's step (m x slowest micro-batch + fill + per-step part)
    bool complete = true;     // false when the order deadlocked (a schedule this code does not know)

    // The boxes of `stage`, in time order.
    [[nodiscard]] std::vector<const TimelineBox*> stageBoxes(int stage) const;
};

// Lays out `evaluation` (a pipelined plan's, with stages) under `layout`.
[[nodiscard]] ScheduleTimeline scheduleTimeline(const PipelineLayout& layout, const PlanEvaluation& evaluation);

}  // namespace tapestry
