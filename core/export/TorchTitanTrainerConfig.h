#pragma once

#include "target/TrainingStackSettings.h"

#include <string>
#include <string_view>

namespace tapestry {

struct FoldedModel;

// A plan as today's torchtitan reads it (targets.md: since 2026-02-23 jobs are Python
// config-registry functions returning Trainer.Config, with `--section.key value`
// overrides): a Python module whose `tapestry_plan(config)` sets the plan's
// ParallelismConfig and TrainingConfig fields and activation checkpointing on the
// Trainer.Config of the model's own registry function, and whose comments give the same
// settings as command-line overrides. PARALLELISM: data_parallel_replicate_degree and
// data_parallel_shard_degree with fsdp_reshard_after_forward (ZeRO 0: replicate; 2:
// shard, "never"; 3: shard, "always"; expert ranks beyond the context- and
// tensor-parallel ones come from the shard dimension), tensor_parallel_degree,
// enable_sequence_parallel, context_parallel_degree, expert_parallel_degree (torchtitan's
// experts borrow the tensor-parallel ranks first), pipeline_parallel_degree,
// pipeline_parallel_schedule, module_fqns_per_model_part (each chunk's
// modules as torchtitan's models name them: tok_embeddings, layers.N, norm, output;
// tapestry_plan renames it where torchtitan's config has the newer name) and
// num_pp_microbatches; TRAINING: num_tokens_per_microbatch_per_dp_rank,
// num_tokens_per_train_step, max_context_length, mixed_precision_param and
// mixed_precision_reduce (fp32 main gradients);
// ACTIVATION_CHECKPOINT "none" (None), "selective" (SelectiveAC.Config: torchtitan's
// op-level policy, SelectiveRecomputation::EveryOtherMatmul) or "full" (FullAC.Config);
// FLOAT8_RECIPE None, "tensorwise" (Float8LinearConverter, Fp8Recipe::PerTensor) or
// "mxfp8_cublas" (MXLinearConverter, Fp8Recipe::Block), set as the config's model
// converters, the output head left in bf16 as torchtitan's own FP8 configs do.
// '#' comments list what torchtitan cannot run as the plan says (trainingStackSettings'
// notes and stackSettingNotes(TorchTitan)).
[[nodiscard]] std::string exportTorchTitanTrainerConfig(const FoldedModel& model, const PlanDocument& document,
                                                        int gpusPerNode);

// Whether `text` reads as such a module: it names torchtitan, and a line starts with
// PARALLELISM, TRAINING or an import of torchtitan, or it carries the export's title (so
// that a broken or cut file gets this reader's errors).
[[nodiscard]] bool isTorchTitanTrainerConfig(std::string_view text);

// Reads the PARALLELISM and TRAINING dictionaries, ACTIVATION_CHECKPOINT and FLOAT8_RECIPE back as Python
// reads them (readPythonLiteral: numbers, strings, booleans, lists), each assigned once.
// Absent fields take torchtitan's defaults; fields the reader does not take are listed in
// the settings' notes, but a near miss of one it takes is an error (torchtitan's
// dataclasses refuse unknown fields). Throws Error(InvalidPlan, fileName, ...) for a
// dictionary that is missing or not a literal, a value of the wrong type (a float for a
// whole number too), a degree below 1 (-1 for the shard degree) or above 2^20, an unknown
// schedule, checkpointing or FP8 recipe, token counts that are not whole sequences or a step of 0,
// and model parts that name no block, a module torchtitan's decoders lack, or do not make
// stages x v chunks in order. The model parts are module_fqns_per_model_part or, as newer
// torchtitan names the field, pipeline_parallel_module_fqns_per_model_part. A pipelined
// step runs as passes of num_pp_microbatches micro-batches each (rankBatch; torchtitan's
// gradient accumulation iterations), which importTrainingStackPlan checks.
[[nodiscard]] TrainingStackSettings parseTorchTitanTrainerConfig(std::string_view text, const std::string& fileName,
                                                                 const FoldedModel& model);

}  // namespace tapestry
