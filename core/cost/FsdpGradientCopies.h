#pragma once

#include "cluster/Cluster.h"

namespace tapestry {

// What PyTorch FSDP does to a wrapped block's gradients on every micro-step before it
// reduce-scatters them, besides the collective itself (training.md, "ZeRO and FSDP").
// Autograd leaves the block's gradients in the 16-bit parameter dtype over the whole,
// unsharded block, and FSDP's post-backward hook (torch/distributed/fsdp/_runtime_utils.py,
// _post_backward_hook and _reduce_grad) then, per parameter:
// - assembles the flat gradient: the module's weights are views of the unsharded flat
//   parameter, so autograd concatenates their gradients into it (SplitWithSizesBackward):
//   reads 2 bytes, writes 2;
// - casts it to the reduce dtype, fp32 under the mixed precision Composer's DEFAULT and
//   torchtitan's default set (flat_param.grad.to(reduce_dtype)): reads 2, writes 4;
// - divides it by the pre-division factor before summing (_div_if_needed with
//   _gradient_predivide_factor, above 1 for every group of 2 or more ranks): reads 4,
//   writes 4.
// kFsdpGradientBytesPerParameter = 18. FSDP2 (torchtitan's fully_shard) moves about as
// much: its copy into the fp32 reduce-scatter buffer (2 + 4) and the copies out of the two
// all-gather buffers (2 x (2 + 2)), 14 bytes. The work is on the whole block (every rank
// holds it unsharded), so it does not shrink with more ranks: it is what makes a thin
// micro-batch of a large model slow at any GPU count. Megatron-LM accumulates gradients
// in fp32 main-gradient buffers inside the weight-gradient GEMM and reduces those
// (cost/KernelTime.h, linearBackwardSeconds), so none of this applies to it.
inline constexpr double kFsdpGradientBytesPerParameter = 18;

// Seconds per micro-step for a block part of `unshardedParameters` on one GPU: memory-bound
// kernels, on the critical path (the post-backward stream has the higher priority, and
// memory-bound kernels beside a GEMM take its SMs).
[[nodiscard]] double fsdpGradientCopySeconds(const GpuSpec& gpu, double unshardedParameters);

}  // namespace tapestry
