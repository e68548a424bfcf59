#pragma once

#include "target/TrainingStackSettings.h"

#include <string>
#include <string_view>

namespace tapestry {

struct FoldedModel;

// Megatron-LM's command-line arguments for a plan, as a bash array MEGATRON_ARGS=( ... )
// to pass to pretrain_gpt.py: tensor, pipeline and virtual pipeline sizes
// (--num-layers-per-virtual-pipeline-stage when the blocks divide evenly into chunks,
// else --virtual-pipeline-model-parallel-size), --sequence-parallel, --num-layers,
// uneven first and last stages (--decoder-first/last-pipeline-num-layers), --seq-length,
// micro and global batch, recomputation (selective; full as --recompute-method uniform
// --recompute-num-layers 1), --use-distributed-optimizer for ZeRO 1 and 2, --use-torch-fsdp2
// for ZeRO 3 without a pipeline (Megatron-Core's FSDP2); a plan priced with Megatron-FSDP
// (megatronRunsMegatronFsdp) as --use-megatron-fsdp with its ZeRO stage as
// --data-parallel-sharding-strategy (no_shard, optim, optim_grads, optim_grads_params) beside
// the --use-distributed-optimizer and --ckpt-format fsdp_dtensor it requires; --bf16 or
// --fp16, --use-flash-attn for fused attention (--attention-backend fused for cuDNN's),
// --optimizer sgd,
// --accumulate-allreduce-grads-in-fp32 (or, for bf16 gradients kept in bf16, the
// --grad-reduce-in-bf16 without which Megatron-LM keeps them in fp32) and
// --overlap-grad-reduce; --context-parallel-size
// with --cp-comm-type p2p (ring attention) or a2a (Ulysses), --expert-model-parallel-size
// with --expert-tensor-parallel-size, and a capacity factor other than 1 as
// --moe-expert-capacity-factor with --moe-pad-expert-input-to-capacity (experts compute
// their whole capacity, as Tapestry prices them). Above the array, '#' comments list
// what Megatron-LM cannot express (trainingStackSettings' notes and
// stackSettingNotes(Megatron)), and with tensor or context parallelism the line
// `export CUDA_DEVICE_MAX_CONNECTIONS=1` that Megatron-LM requires (with Megatron-FSDP,
// which refuses it: `unset CUDA_DEVICE_MAX_CONNECTIONS`).
// `gpusPerNode` > 0 lets it say when tensor parallelism crosses nodes.
[[nodiscard]] std::string exportMegatronArguments(const FoldedModel& model, const PlanDocument& document,
                                                  int gpusPerNode);

// Whether `text` reads as Megatron-LM arguments: it names a tensor-, pipeline-,
// context- or expert-model-parallel size (after any dash), or has the array or the title
// exportMegatronArguments writes.
[[nodiscard]] bool isMegatronArguments(std::string_view text);

// Reads Megatron-LM arguments: the array exportMegatronArguments writes, or a launch
// script, split into words as bash splits it (shellWords: comments, quotes, escapes,
// continuations, NAME=( ... ) arrays; --flag=value accepted). The flags above are read;
// other flags and their values are ignored (a launch script's model and data arguments)
// and listed in a note. Every word after a command's first flag, and every word of an
// array that holds flags, must be a flag or a value the flag takes: a word that is
// neither (a stray word, a second value, a value after a switch) is refused with its
// line, as are shellWords' errors (look-alike dashes, Unicode spaces, unterminated
// quotes and arrays, binary). Defaults are Megatron-LM's: sizes 1,
// --cp-comm-type p2p, an expert tensor-parallel size equal to the tensor-parallel one,
// micro-batch 1, global batch micro-batch x data parallel, no recomputation, fp32,
// unfused attention, capacity factor 1 (dropless routing's average), sharding strategy
// no_shard. --use-megatron-fsdp (or its old name --use-custom-fsdp) reads as Megatron-FSDP at
// the strategy's ZeRO stage; a strategy that shards gradients turns on the overlap of their
// reduction, as Megatron-LM's validate_args does; a strategy without --use-megatron-fsdp is
// noted and does not shard. The data-parallel
// size is left 0 (Megatron-LM derives it from the world size). Notes: a full
// recomputation other than uniform over one layer, read as full recomputation of every
// block; --cp-comm-type allgather and a2a+p2p, read as ring attention; a capacity factor
// without padding. Throws Error(InvalidPlan, fileName, ...) for a value that is not a
// whole number from 1 to 2^20 (a capacity factor: not above 0 and up to 1024) or not a known name
// (a sharding strategy too), both --use-megatron-fsdp and --use-torch-fsdp2, a flag
// without its value, virtual stages whose layer count does not divide the layers, and
// first/last stage overrides that leave the middle stages uneven.
[[nodiscard]] TrainingStackSettings parseMegatronArguments(std::string_view text, const std::string& fileName,
                                                           const FoldedModel& model);

}  // namespace tapestry
