#pragma once

#include "cluster/Cluster.h"
#include "cost/Workload.h"

namespace tapestry {

// What PyTorch's FSDP copies through HBM on every micro-step around its collectives,
// besides the collectives themselves (training.md, "ZeRO and FSDP"), per parameter of the
// whole, unsharded block: each rank holds the block unsharded, so it does not shrink with
// more ranks, and it is what makes a thin micro-batch of a large model slow at any GPU
// count. Both implementations reduce in fp32 by default (Composer's DEFAULT mixed
// precision, torchtitan's mixed_precision_reduce) from 16-bit gradients; the counts below
// are for that, and `reduceBytes` (2 for a 16-bit reduce dtype) replaces the 4 fp32 bytes.
//
// FSDP1 (torch/distributed/fsdp/_runtime_utils.py, _post_backward_hook and _reduce_grad),
// per flat parameter:
// - assembles the flat gradient: the module's weights are views of the unsharded flat
//   parameter, so autograd concatenates their gradients into it (SplitWithSizesBackward):
//   reads 2 bytes, writes 2;
// - casts it to the reduce dtype (flat_param.grad.to(reduce_dtype)): reads 2, writes 4
//   (nothing when the reduce dtype is the gradient's own);
// - divides it by the pre-division factor before summing (_div_if_needed with
//   _gradient_predivide_factor, above 1 for every group of 2 or more ranks): reads 4,
//   writes 4.
// It gathers into the flat parameter's own storage: no copy after its all-gathers.
// kFsdp1GradientBytesPerParameter = 18.
//
// FSDP2 (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py):
// - foreach_reduce copies the parameters' gradients (each its own leaf: no concatenation)
//   into the reduce-scatter buffer in the reduce dtype (chunk_cat widens while copying):
//   reads 2, writes 4; with fp32 or bf16 it divides inside the collective (ReduceOp.AVG,
//   _get_gradient_divide_factors), with no pass of its own;
// - foreach_all_gather_copy_out copies every all-gather's output into the parameters
//   (split_with_sizes_copy): reads 2, writes 2, once per gather.
// kFsdp2ReduceBytesPerParameter = 6 plus kFsdp2GatherCopyBytesPerParameter = 4 per
// gather: 14 under ZeRO 3 (gathered for forward and again for backward), 10 under ZeRO 2
// (reshard_after_forward=False: one gather per micro-step).
//
// Megatron-FSDP (Megatron-LM megatron/core/distributed/fsdp/src/megatron_fsdp/
// param_and_grad_buffer.py, GradReducePipeline and gradient_reduce_preprocessing; its
// README: "zero copy communication" and TE's gradient accumulation fusion "remove the
// explicit gradient copy to the communication buffer") keeps the unsharded gradient bucket
// as the parameters' main_grad, in the main-gradient type it also reduces in
// (main_grads_dtype, grad_comm_dtype defaulting to it): the weight-gradient GEMM writes
// into it (priced in the GEMM) and the all-gather fills the bucket the parameters view.
// Per micro-step it
// - scales the bucket by 1/ranks before summing: a PREMUL_SUM inside the collective for
//   fp32 (gradient_reduce_div_fusion, default on), but `mul_` in place for bf16
//   (average_in_collective is off by default, and Megatron-Bridge's performance scripts,
//   _set_megatron_fsdp_overrides, turn it off: "not supported with Megatron FSDP"): reads 2,
//   writes 2;
// - reduce-scatters into a new shard and adds it to the sharded main gradient
//   (local_buffer += grad_shard): reads 2, writes 1 in the reduce type per element of the
//   shard, 1/shard ranks of the block.
// kMegatronFsdpBf16ScaleBytesPerParameter = 4.
//
// Megatron-LM's own data parallelism accumulates gradients in main-gradient buffers inside
// the weight-gradient GEMM and reduces those (cost/KernelTime.h, linearBackwardSeconds),
// and DeepSpeed reduces its own buckets, so none of this applies to them.
inline constexpr double kFsdp1GradientBytesPerParameter = 18;
inline constexpr double kFsdp2ReduceBytesPerParameter = 6;
inline constexpr double kFsdp2GatherCopyBytesPerParameter = 4;
inline constexpr double kMegatronFsdpBf16ScaleBytesPerParameter = 4;

// Bytes per parameter of the unsharded block that `implementation` copies per micro-step
// under `zeroStage` (2 or 3; 0 below 2 and for DeepSpeed), reducing 16-bit gradients in a
// type of `reduceBytes` over `shardRanks`: 18 and 14 (ZeRO 3) or 10 (ZeRO 2) above for 4,
// 8 and 12 or 8 for 2; Megatron-FSDP's 12 / shardRanks for 4 and 4 + 6 / shardRanks for 2.
[[nodiscard]] double fsdpCopyBytesPerParameter(ZeroImplementation implementation, int zeroStage, double reduceBytes,
                                               double shardRanks);

// Seconds per micro-step for a block part of `unshardedParameters` on one GPU: memory-bound
// kernels, on the critical path (the post-backward stream has the higher priority, and
// memory-bound kernels beside a GEMM take its SMs).
[[nodiscard]] double fsdpGradientCopySeconds(const GpuSpec& gpu, double unshardedParameters,
                                             ZeroImplementation implementation, int zeroStage, double reduceBytes,
                                             double shardRanks);

}  // namespace tapestry
