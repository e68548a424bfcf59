#pragma once

#include "cost/Workload.h"
#include "plan/PlanFile.h"
#include "target/TrainingStack.h"
#include "target/TrainingStackSettings.h"

#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// What each training stack runs, stated once (targets.md). The search asks these rules
// which layouts and techniques to try, the exports which parts of a plan a stack cannot
// carry; a plan that a stack runs as is exports to it with no note and imports back as
// the same physical plan (physicalLayout: a batch split over [2, 8] comes back as the
// stack's data parallel 16 on [16, 1]) at the same price.

// The parallel layouts a stack runs on one pipeline stage's mesh `stageMesh`: each axis
// takes one role, data outermost, then context, tensor innermost (the stacks' rank order,
// tp-cp-dp from the inside), and the degrees are the products of the axes of each role.
// Then sequence parallelism on or off under tensor parallelism, ring attention or (Megatron-LM only) Ulysses under context parallelism, and for a model
// with mixture-of-experts layers of `expertCount` experts every expert-parallel size that
// divides it, with the experts tensor parallel or not (torchtitan: not). Tensor-parallel
// sizes divide the model's `keyValueHeads` (0: no attention): Megatron-Core refuses
// num_query_groups % tensor_model_parallel_size != 0, and torchtitan's and PyTorch's
// tensor parallelism shard whole heads. Degrees and flags only: pipeline,
// workload and layer count stay unset. Distinct layouts, in a fixed order. Any: none.
[[nodiscard]] std::vector<TrainingStackSettings> stackLayouts(TrainingStack stack, const std::vector<MeshAxis>& stageMesh,
                                                              int expertCount, int keyValueHeads = 0);

// The ZeRO stages the search tries for `stack` (ZeRO 0 costs the same traffic as 1 and
// more memory where both exist): Megatron-LM 1 (distributed optimizer) and 3 (FSDP2,
// not with a pipeline); torchtitan 0 (DDP), 2 and 3 (FSDP, resharding never or always
// after forward); PyTorch 2 and 3 (its export shards with FSDP2); Any 1 to 3. On a
// pipeline 1 where the stack has it, else 0 and 2 (a pipeline runs many micro-batches:
// ZeRO 3 gathers for each). A layout without data or context ranks runs each as ZeRO 0
// (effectiveZeroStage), and the PyTorch export applies no FSDP there.
[[nodiscard]] std::vector<int> stackZeroStages(TrainingStack stack, bool pipelined);
// The HSDP replicas (Workload::zeroReplicas) the search tries for a ZeRO 2/3 workload of
// `layout` beside one shard group of every data rank: torchtitan and PyTorch (fully_shard
// on a 2-D mesh) shard within each NVLink domain of `domainSize` GPUs and replicate across
// them, when the layout's data ranks (data x context parallel, outside the tensor-parallel
// ones) span several domains, fill whole ones, and no experts borrow them. Empty: none
// (Megatron-LM and Any, or no such cut).
[[nodiscard]] std::vector<int> stackZeroReplicas(TrainingStack stack, const TrainingStackSettings& layout,
                                                 int domainSize);
// The recomputations the search tries: none and full, and selective where it drops
// something: Megatron-LM's and PyTorch's (attention's core) only with unfused attention
// (a fused kernel keeps no s x s tensors), torchtitan's op-level policy always.
[[nodiscard]] std::vector<Recomputation> stackRecomputations(TrainingStack stack, AttentionKernel attention);
// What selective recomputation recomputes on `stack`: torchtitan's op-level policy
// (SelectiveAC) every other matmul, the others (and Any) attention's core.
[[nodiscard]] SelectiveRecomputation stackSelectiveRecomputation(TrainingStack stack);
// How full recomputation replays a block on `stack`: torchtitan and PyTorch wrap blocks in
// PyTorch's non-reentrant checkpoint (torchtitan's ptd_checkpoint_wrapper, the PyTorch
// export's checkpoint_wrapper), which stops early; Megatron-LM (and Any) the whole block.
[[nodiscard]] CheckpointReplay stackCheckpointReplay(TrainingStack stack);
// What autograd keeps on `stack`: the PyTorch export's models run eager (transformers' modules
// op by op); Megatron-LM's fused kernels, and torchtitan's (whose runs compile the model), and
// Any: the fused accounting.
[[nodiscard]] SavedActivations stackSavedActivations(TrainingStack stack);
// How `stack` runs its optimizer step: on fp32 master copies in the PyTorch export's training
// loop (its header asks for torch.optim's fused AdamW on them) and in Megatron-LM by default
// (FusedAdam on its fp32 main parameters, copied back into the weights; the export asks for
// the fused step where Megatron-LM runs it: megatronRunsFusedStep); torchtitan and Any: one
// fused kernel's bytes.
[[nodiscard]] OptimizerStep stackOptimizerStep(TrainingStack stack);
// Whether `stack` keeps its gradients between steps: torchtitan and the PyTorch export call
// zero_grad(set_to_none=True) (FSDP2 frees the sharded ones too); Megatron-LM keeps its
// contiguous gradient buffer and zeroes it every step (ZeroedEachStep), Any keeps a
// persistent one.
[[nodiscard]] GradientLifetime stackGradientLifetime(TrainingStack stack);
// How `stack` clips the gradients by their global norm (Workload::gradientClipping):
// Megatron-LM reads the norm every step and scales them above the limit (--clip-grad 1.0 by
// default), torchtitan scales them every step (training.max_norm 1.0 by default); the
// PyTorch export writes no training loop, and Any prices none.
[[nodiscard]] GradientClipping stackGradientClipping(TrainingStack stack);
// Which ZeRO 2/3 implementation `stack` runs: FSDP2 (fully_shard) for torchtitan, the
// PyTorch export and Megatron-LM's ZeRO 3 (--use-torch-fsdp2); Any: FSDP1 (the default).
// Megatron-LM also runs Megatron-FSDP, for a workload that names it
// (megatronRunsMegatronFsdp); its searches price FSDP2.
[[nodiscard]] ZeroImplementation stackZeroImplementation(TrainingStack stack);
// Whether Megatron-LM runs `settings`' data parallelism as Megatron-FSDP
// (--use-megatron-fsdp, the ZeRO stage as its --data-parallel-sharding-strategy): the
// workload names that implementation and there is no pipeline (Megatron-Core's
// Megatron-FSDP documentation names tensor, context and expert parallelism beside it, not
// pipelines). Otherwise Megatron-LM's own data parallelism runs the plan, noted where
// that is not the price.
[[nodiscard]] bool megatronRunsMegatronFsdp(const TrainingStackSettings& settings);
// Whether Megatron-LM runs `settings`' data parallelism with its distributed optimizer
// (--use-distributed-optimizer): ZeRO 1 and 2, ZeRO 3 with a pipeline (written as ZeRO 1)
// and Megatron-FSDP (which requires it); not ZeRO 0, nor ZeRO 3 as Megatron-Core's FSDP2
// (--use-torch-fsdp2, which shards the states itself).
[[nodiscard]] bool megatronRunsDistributedOptimizer(const TrainingStackSettings& settings);
// Whether Megatron-LM runs `settings`' fused optimizer step (OptimizerStep::Fused or
// FusedRemainders) as --use-precision-aware-optimizer (Transformer Engine's FusedAdam with
// master weights): Megatron-Core's OptimizerConfig allows it only for Adam on the
// distributed optimizer.
[[nodiscard]] bool megatronRunsFusedStep(const TrainingStackSettings& settings);
// How that step keeps the fp32 masters of `workload`'s weights by default (Transformer
// Engine 2.1 and later): as 16-bit remainders of bf16 weights (FusedRemainders), whole
// otherwise (Fused). FusedAdam's store_param_remainders "works only when param type is BF16
// and master weight type is FP32, no effect otherwise" (its docstring; the remainder kernel
// checks "Adam with BF16 param remainders requires BF16 params", TE #1408): fp16 weights keep
// whole masters, and so do FP8 weights (--fp8-param-gather), which have no bf16 bits to
// rebuild a master from: FusedAdam steps them with fp32 masters (multi_tensor_adam_fp8), and
// Megatron-Core's later releases keep those fp32 masters themselves for every recipe but
// delayed scaling (OptimizerConfig.use_precision_aware_optimizer_no_fp8_or_ds_fp8). Not
// checked on r0.12, the release the exports are checked against: there FusedAdam receives
// slices of the FP8 weights (Float8Tensors, whose nominal dtype is bf16) and its step picks
// remainders by `p.dtype == torch.bfloat16`; whether that path runs, and what it keeps, needs
// a GPU run.
[[nodiscard]] OptimizerStep megatronFusedStep(const Workload& workload);
// Which library runs `stack`'s FP8 linear layers under `recipe`, and how under tensor
// parallelism: torchtitan's tensorwise float8 with its Float8 tensor parallelism
// (TorchaoFloat8TensorParallel), torchao's layers under plain tensor parallelism for
// torchtitan's MXFP8 and for the PyTorch export (which names torchao's conversions and
// writes ColwiseParallel/RowwiseParallel), Transformer Engine for Megatron-LM and Any.
// Without FP8 none runs: the default (TransformerEngine),
// so that a 16-bit workload reads the same from every stack's files. The importers, which
// learn the recipe after the rest, set it from this too.
[[nodiscard]] Fp8Implementation stackFp8Implementation(TrainingStack stack, Fp8Recipe recipe);
// How `stack`'s attention call takes grouped-query keys and values, which it keeps for
// backward: Megatron-LM with their own heads (Megatron-Core gives Transformer Engine's
// DotProductAttention num_gqa_groups for every backend, FlashAttention-2 included);
// torchtitan and the PyTorch export repeated per query head (repeat_kv before SDPA);
// Any: as the kernel's usual caller (KeyValueHeads::AsKernel).
[[nodiscard]] KeyValueHeads stackKeyValueHeads(TrainingStack stack);
// `workload` with each technique as `stack` implements it (stackSelectiveRecomputation,
// stackCheckpointReplay, stackSavedActivations, stackOptimizerStep, stackGradientLifetime, stackZeroImplementation,
// stackGradientClipping, stackFp8Implementation, stackKeyValueHeads; Megatron-LM overlaps an interleaved pipeline's
// sends, Workload::pipelineSendOverlap): what a search for the stack prices and what its
// files import as. Any: unchanged.
[[nodiscard]] Workload withStackImplementations(Workload workload, TrainingStack stack);
// `recorded` (the stack whose implementations a plan was priced with) where `workload` is
// still priced with them (withStackImplementations leaves it as it is), else Any: a
// workload changed since, by an option that names another implementation, names none
// in particular.
[[nodiscard]] TrainingStack implementationsNamed(TrainingStack recorded, const Workload& workload);
// Whether `workload` names implementations of its own: one of the techniques
// withStackImplementations sets is not a default Workload's (DeepSpeed's ZeRO, a replay
// that stops early, ...). An `any` search prices such a workload as named, not as a stack runs it.
[[nodiscard]] bool namesImplementations(const Workload& workload);

// What `settings` (a layout with its pipeline, layers and bound workload) asks of `stack`
// that it cannot run as written: a ZeRO stage, recomputation, schedule, stage sizes,
// precision, optimizer, attention kernel, capacity factor, batch sizes that do not
// divide, a context-parallel variant or an expert-parallel size the stack does not take,
// and grouped-query keys and values kept otherwise than its attention call keeps them
// (stackKeyValueHeads; only with settings.groupedQueryAttention, where the memory differs).
// Empty: it runs as is. Any: always empty.
[[nodiscard]] std::vector<std::string> stackSettingNotes(TrainingStack stack, const TrainingStackSettings& settings);

// What `stack` cannot train in `model` whatever the plan: Megatron-LM (GPT, BERT, T5) and
// torchtitan (decoder language models) train transformers, so a model without attention
// (no batched matmul: a convolutional network) runs on the PyTorch export only.
[[nodiscard]] std::vector<std::string> stackModelNotes(TrainingStack stack, const FoldedModel& model);

// Everything in `document`'s plan that `stack` cannot run as is: stackModelNotes, the
// layout's notes (trainingStackSettings), stackSettingNotes, and a plan that the stack's
// layout does not rebuild on the devices (planFromTrainingStackSettings gives another physicalLayout:
// other splits, or other sizes once batch-only axes are merged). Empty: exporting to the
// stack writes this plan, on the stack's mesh. Any: always empty.
[[nodiscard]] std::vector<std::string> stackInexpressible(TrainingStack stack, const FoldedModel& model,
                                                          const PlanDocument& document);

// The runnable stacks (PyTorch, Megatron-LM, torchtitan) that run `document`'s plan as is.
[[nodiscard]] std::vector<TrainingStack> stacksRunning(const FoldedModel& model, const PlanDocument& document);

}  // namespace tapestry
