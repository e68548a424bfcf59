#pragma once

#include "cost/Workload.h"
#include "plan/ParallelDegrees.h"
#include "plan/PlanFile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;
class StagePlans;

// What the configurations of Megatron-LM and torchtitan say about a training run: one
// tensor-parallel size with Megatron-LM's layer pattern (column-parallel fan-out, row-parallel
// fan-in projections, optionally sequence-parallel norms), a data-parallel size, the
// pipeline, and the step's workload. Exports derive it from a plan; imports read it from
// the stack's file and build the plan it describes (planFromTrainingStackSettings).
struct TrainingStackSettings {
    int tensorParallel = 1;
    int dataParallel = 0;  // 0: whatever the GPU count leaves (Megatron-LM derives it from the world size)
    // Imports: torchtitan's replicate degree (HSDP's replicas beside a shard degree above
    // 1). With dataParallel 0 (a shard degree of -1) what the GPU count leaves must be a
    // multiple of it; all of it replicates (DDP, ZeRO 0) when nothing is left to shard.
    int replicas = 1;
    bool sequenceParallel = false;
    // Context parallelism (the sequence split through attention) between the tensor- and
    // data-parallel ranks, as ring attention or DeepSpeed-Ulysses.
    int contextParallel = 1;
    ContextParallelVariant contextVariant = ContextParallelVariant::None;
    // Expert parallelism: the experts of each mixture-of-experts layer spread over
    // expertParallel ranks taken, innermost first, from the expert tensor-parallel ranks'
    // neighbours: the context-parallel ranks, then the data-parallel ones (Megatron-LM's
    // and torchtitan's order). expertTensorParallel is the tensor parallelism inside an
    // expert: the tensor-parallel size where the experts split weights on its axis, else 1
    // (the experts spread over those ranks too, or split their tokens there).
    int expertParallel = 1;
    int expertTensorParallel = 1;
    PipelineLayout pipeline;  // exports resolve chunkStarts; imports leave them empty for an even split
    // batch: the global batch (0: rankBatch per data-parallel rank, both stacks'
    // default); microBatch: sequences per data-parallel rank and micro-step.
    Workload workload;
    // Imports: sequences per data-parallel rank in one pass of the stack's schedule (0: one
    // micro-batch). torchtitan runs a pipelined step as whole such passes (its gradient
    // accumulation iterations), each a pipeline schedule with its own bubble.
    std::int64_t rankBatch = 0;
    std::int64_t accumulation = 0;  // imports: micro-batches per rank and step as the file states them (0: not said)
    std::int64_t layers = 0;                   // the model's blocks as the file counts them (0: not said)
    std::vector<std::string> blockModulePaths;  // exports: each block's module path, "model.layers.7"
    // Exports: the model's attention repeats keys and values from fewer heads than its
    // queries (repeatsKeyValueHeads), so keeping them grouped or repeated differs in memory.
    bool groupedQueryAttention = false;
    // Exports: what the plan does that this layout cannot carry. Imports: what the file
    // says that the plan reads differently (warnings).
    std::vector<std::string> notes;
    // Exports: what the file runs as the plan says but a reader should know (tensor
    // parallelism across nodes).
    std::vector<std::string> remarks;
};

// The settings that run `document`'s plan as closely as Megatron-LM's layout can. The
// tensor-parallel size is the stage-mesh axis on which the plan splits weights (the last
// one if several), the context-parallel size the product of the other axes where
// attention runs context parallel (contextParallelVariant), the data-parallel size the
// product of the rest, the expert-parallel size expertParallelDegree; sequence
// parallel when a normalization is sequence-split on the tensor-parallel axis; chunk
// starts resolved; the workload's batch, sequence and micro-batch bound as CostModel
// binds them (micro-batch 0: the whole per-rank batch), its ZeRO stage the one the data
// and context ranks run (effectiveZeroStage: 0 without any). Notes say, grouped by family,
// which nodes the plan splits unlike Megatron-LM's pattern (makeExpertPlan), weights split
// on a second axis, a tensor-parallel axis that is not the innermost, tensor parallelism
// across nodes (when `gpusPerNode` > 0 tells), a global batch that is not a multiple
// of micro-batch x data-parallel size, context-parallel axes that mix ring and Ulysses
// attention (written as ring) or do not lie between the tensor- and data-parallel axes,
// and expert-parallel axes that are not the ranks the stacks take for it. Throws
// Error(InvalidPlan) for a plan that does not fit the model.
[[nodiscard]] TrainingStackSettings trainingStackSettings(const FoldedModel& model, const PlanDocument& document,
                                                          int gpusPerNode);

// How torchtitan lays out `settings`' data-parallel ranks, in both of its config forms:
// FSDP's replicate and shard degrees (HSDP when both are above 1), whether it reshards
// after forward, and the expert-parallel degree it is written with. ZeRO 1, and ZeRO 0
// with context parallelism (torchtitan shards over dp_shard x cp whenever cp > 1), are
// written as FSDP that keeps parameters gathered from forward to backward (ZeRO 2: the
// distributed optimizer's traffic without DDP's whole optimizer state per rank). Its expert
// parallelism borrows the context-parallel ranks (and, with expert tensor parallelism 1,
// the tensor-parallel ones) and then FSDP's shard ranks: without FSDP the shard degree
// covers the expert ranks beyond the borrowed ones, and experts that do not fit so are
// written without expert parallelism (stackSettingNotes says so).
struct TorchTitanDataParallel {
    int replicate = 1;
    int shard = 1;
    bool sharded = false;  // FSDP shards parameters (fsdp_reshard_after_forward applies)
    bool reshardAfterForward = false;
    int expertParallel = 1;
};
[[nodiscard]] TorchTitanDataParallel torchTitanDataParallel(const TrainingStackSettings& settings);

// The expert plan `settings` describe: makeExpertPlan(Megatron, or
// MegatronSequenceParallel) on the stage mesh {"dp", "tp"}, the pipeline and the
// workload; origin Import, named after the file's stem. Context parallelism adds an axis
// "cp" before "tp" laid out as makeExpertPlan(RingAttention or Ulysses) lays out its
// last axis; expert parallelism spreads the experts' nodes that take the split (expertMembership)
// over the tensor-parallel axis when the expert tensor-parallel size is 1, then "cp", then
// "dp" or an axis "ep" cut from its inside (or from the inside of "cp", when the
// expert-parallel size is smaller). `gpuCount` (0: unknown) fixes a data-parallel size of
// 0 and must equal pipeline x data-parallel x context-parallel x tensor-parallel size.
// The workload's ZeRO stage is the one its data and context ranks run (effectiveZeroStage).
// Throws Error(InvalidPlan, fileName, ...) when the sizes do not multiply to the GPU
// count, the data-parallel size is unknown without a GPU count, the file's layer count
// is not the model's block count, the pipeline does not fit the model's blocks, the
// expert sizes do not fit those ranks (an expert tensor-parallel size other than 1 or the
// tensor-parallel size; an expert-parallel size that neither divides nor is a multiple
// of the context-parallel ranks, or does not divide the ranks it takes), or the model has
// no mixture-of-experts layer to spread. With `plans` (of this model), a plan of a kind
// built before copies its strategies instead of building and checking them again.
[[nodiscard]] PlanDocument planFromTrainingStackSettings(const TrainingStackSettings& settings,
                                                         const FoldedModel& model, const std::string& fileName,
                                                         int gpuCount, StagePlans* plans = nullptr);

// A block's module path as PyTorch names it: "model/layers.7" -> "model.layers.7".
[[nodiscard]] std::string blockModulePath(const BlockInstance& block);

// `text` on one line (its line breaks as spaces), for the exports' '#' comments.
[[nodiscard]] std::string commentLine(std::string text);

// "pipeline 8 x data parallel 2 x tensor parallel 8 = 128 GPUs", with "x context parallel
// N" before the tensor-parallel size and ", experts over N" when they are above 1.
[[nodiscard]] std::string trainingStackShape(const TrainingStackSettings& settings);

// The '#' comment block both exports open with: "# <title> for Tapestry plan "NAME"
// (MODEL):", the sizes, the `guidance` lines, and `notes` under "Not expressible in
// <stack>:". Line breaks inside names and notes become spaces, so every line stays a comment.
[[nodiscard]] std::string trainingStackComments(const std::string& title, const std::string& stack,
                                                const FoldedModel& model, const PlanDocument& document,
                                                const TrainingStackSettings& settings,
                                                const std::vector<std::string>& guidance,
                                                const std::vector<std::string>& notes);

}  // namespace tapestry
