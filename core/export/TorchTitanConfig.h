#pragma once

#include "target/TrainingStackSettings.h"

#include <string>
#include <string_view>

namespace tapestry {

struct FoldedModel;

// A torchtitan job config (TOML) for a plan: [parallelism] data_parallel_shard_degree
// (ZeRO 3, and ZeRO 2 with fsdp_reshard_after_forward = "never") or
// data_parallel_replicate_degree (ZeRO 0 and 1), tensor_parallel_degree,
// enable_async_tensor_parallel = false, pipeline_parallel_degree, _schedule ("1F1B",
// "Interleaved1F1B", "GPipe"), _split_points (the module path of the block starting each
// chunk after the first) and _microbatch_size; [activation_checkpoint] mode ("none",
// "selective" with selective_ac_option "op", "full"); [training] local_batch_size (the
// micro-batch, or with a pipeline the per-rank batch of the step that torchtitan cuts into
// micro-batches), global_batch_size, seq_len, mixed_precision_param; above 1,
// context_parallel_degree and expert_parallel_degree with expert_tensor_parallel_degree.
// torchtitan takes expert-parallel ranks from FSDP's shard dimension (with the
// context-parallel ones): a plan without FSDP gets a shard degree that covers them.
// '#' comments above list what torchtitan cannot express (trainingStackSettings' notes,
// ZeRO 1, replicated norms under tensor parallelism, unfused attention, fp16, Ulysses
// attention (written as ring attention), experts that do not spread over every
// context-parallel rank (and with expert tensor parallelism 1, every tensor-parallel
// one): written without expert parallelism, a capacity factor other than 1).
[[nodiscard]] std::string exportTorchTitanConfig(const FoldedModel& model, const PlanDocument& document,
                                                 int gpusPerNode);

// torchtitan's name of a pipeline schedule: "GPipe", "1F1B", "Interleaved1F1B".
[[nodiscard]] const char* torchTitanScheduleName(PipelineSchedule schedule);

// Whether `text` reads as a torchtitan job config: it has a [parallelism] section.
[[nodiscard]] bool isTorchTitanConfig(std::string_view text);

// Reads the keys exportTorchTitanConfig writes from a TOML 1.0 document (toml++);
// other sections and keys are ignored. Absent keys take torchtitan's defaults (shard degree -1:
// the GPUs left, read as FSDP; activation checkpointing selective; local batch 8; sequence
// 2048, context, expert and expert tensor parallelism 1; context parallelism is ring
// attention). Split points match a block whose module path is the name or ends with "." and
// the name ("layers.4" finds "model.layers.4"). Tensor parallelism comes back sequence
// parallel (torchtitan's plans shard norms over the sequence). Notes: a
// selective_ac_option other than "op", read as Tapestry's selective recomputation. Throws
// Error(InvalidPlan, fileName, "line L: ...") for text that is not TOML 1.0 (toml++'s
// message), a parallelism, training or activation_checkpoint that is not a table, a value
// of the wrong type, a degree below 1 (-1 for the shard degree), an unknown schedule, AC
// mode or precision, a local batch that pipeline micro-batches do not divide, split
// points that name no block or do not make p x v chunks, and an interleaved schedule
// without split points.
[[nodiscard]] TrainingStackSettings parseTorchTitanConfig(std::string_view text, const std::string& fileName,
                                                          const FoldedModel& model);

}  // namespace tapestry
