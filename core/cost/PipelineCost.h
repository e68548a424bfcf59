#pragma once

#include "cluster/Cluster.h"
#include "cost/CostModel.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapestry {

// Pipeline schedules (training.md, "Pipeline parallelism"; Narayanan et al., SC'21).
enum class PipelineSchedule : std::uint8_t {
    GPipe,        // all forwards, then all backwards: m micro-batches of activations in flight
    OneFOneB,     // one forward, one backward: at most p in flight on the first stage
    Interleaved,  // 1F1B over v chunks per device: bubble (p - 1)/(v m), p2p x v
};

[[nodiscard]] const char* pipelineScheduleName(PipelineSchedule schedule);
[[nodiscard]] std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name);

struct PipelineShape {
    int stages = 1;         // p
    int virtualStages = 1;  // v: chunks per device (Interleaved only)
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
};

// One device's share of the pipeline: the chunks of consecutive blocks it runs.
struct PipelineStage {
    std::vector<std::pair<std::size_t, std::size_t>> blockRanges;  // [first, last) per chunk, in block order
    double microBatchSeconds = 0;  // forward + backward of one micro-batch over its chunks, p2p sends included
    double stepSeconds = 0;        // once per step: the optimizer and the exposed data-parallel traffic
    double p2pSeconds = 0;         // per micro-batch
    MemoryBreakdown memory;        // activations with the micro-batches in flight
};

struct PipelineEvaluation {
    std::vector<PipelineStage> stages;
    int microBatches = 1;         // m
    double stepSeconds = 0;       // (m + (p - 1)/v) x slowest micro-batch time + slowest per-step part
    double bubbleSeconds = 0;     // (p - 1)/v x slowest micro-batch time (GPipe and 1F1B: v = 1)
    double peakMemoryBytes = 0;   // of the fullest stage
};

// Prices a pipeline whose every stage runs `plan` on the stage mesh of `stageCosts`
// (the cost model of one stage's devices: the whole model, priced per node). The
// model's blocks (top-level family instances, in order) are split into p x v chunks of
// consecutive blocks as evenly as the counts allow; the nodes before the first block
// (embedding) join the first chunk, the others outside blocks (head, loss) the last.
// Device s runs chunks s, s + p, s + 2p, ... Each chunk boundary sends one micro-batch's
// block input forward and its gradient back over `boundaryLink`. Memory: parameters,
// gradients and optimizer states of the device's chunks; activations of one
// micro-batch times the micro-batches in flight on that device (GPipe m; 1F1B p - s;
// interleaved (p - s)(1 + (p - 1)/(p v)), Megatron-LM's count); the transient buffer.
// Throws Error(InvalidArgument) when the model has fewer blocks than p x v chunks.
[[nodiscard]] PipelineEvaluation evaluatePipeline(const CostModel& stageCosts, const CoarseGraph& coarse,
                                                  const FamilyTable& families, const Plan& plan,
                                                  const PipelineShape& shape, const LinkSpec& boundaryLink);

}  // namespace tapestry
