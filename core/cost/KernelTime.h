#pragma once

#include "cluster/Cluster.h"

namespace tapestry {

// How long one kernel runs on one GPU (cost-model.md, "compute"): a roofline in which
// math runs at the share of the peak that real kernels of its kind reach and memory
// traffic at the share of HBM bandwidth that streaming kernels reach.
//
// - Matmuls (cuBLAS GEMMs, forward and each backward one alike): max(flops / (peak x
//   gpu.achievableFraction), bytes / (HBM x kHbmShare)). A small or thin matmul moves
//   many bytes per flop and lands on the bandwidth side, which is how the GEMM
//   efficiency falls with its size instead of one fixed fraction.
// - Fused attention (FlashAttention): flops / (peak x gpu.attentionFraction); it keeps
//   the s x s scores on chip, so it moves no score bytes.
// - Memory-bound kernels (normalizations, activations, residual adds, the optimizer):
//   bytes / (HBM x kHbmShare).
//
// kHbmShare 0.8: elementwise and reduction kernels reach 80-90 % of the HBM peak
// (STREAM-like copies on A100 and H100 measure 1.6-1.7 of 2.0 TB/s and 2.6-2.9 of
// 3.35 TB/s); the lower end, because training kernels also read strided and reduce.
inline constexpr double kHbmShare = 0.8;

[[nodiscard]] double matmulSeconds(const GpuSpec& gpu, double flops, double bytes);
[[nodiscard]] double fusedAttentionSeconds(const GpuSpec& gpu, double flops);
[[nodiscard]] double memoryBoundSeconds(const GpuSpec& gpu, double bytes);

}  // namespace tapestry
