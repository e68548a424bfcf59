#pragma once

#include "cluster/Cluster.h"
#include "cost/Workload.h"

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

// One linear layer Y = X W in FP8 (Transformer Engine, torchao float8), per device.
// Each of its three GEMMs (forward; dgrad and wgrad backward) runs at the GPU's FP8 rate
// at gpu.fp8.achievableFraction, reading one-byte operands (plus MXFP8's scales) and
// writing 16-bit results, and every operand is quantized first by a memory-bound kernel
// that reads the 16-bit tensor and writes the FP8 copy and its transpose (Hopper's FP8
// GEMMs take only the TN layout, so dgrad and wgrad need transposed copies; MXFP8 writes
// row-wise and column-wise copies with their block scales):
// - per-tensor (current) scaling reads the tensor once more before, for its amax:
//   2 + 2 + 1 + 1 bytes per element;
// - MXFP8 computes each block's scale while casting: 2 + 2 (1 + 1/32) bytes per element.
// X is quantized in forward, the output gradient dY in backward (dgrad and wgrad read it),
// the weight once per optimizer step (`weightCast`): Transformer Engine keeps the FP8
// weights for the micro-batches after the first and torchao computes FSDP's FP8 scales
// once per step. The amax all-reduces of a few bytes each are not priced.
struct Fp8LinearSeconds {
    double forward = 0;     // the GEMM and the quantization of X
    double backward = 0;    // two GEMMs and the quantization of dY
    double weightCast = 0;  // once per step
};
[[nodiscard]] Fp8LinearSeconds fp8LinearSeconds(const GpuSpec& gpu, Fp8Recipe recipe, double flops,
                                                double inputElements, double weightElements, double outputElements);

// Bytes per element of one FP8 copy of a tensor under `recipe` (MXFP8 adds a scale byte
// per 32 elements): what a saved FP8 activation takes.
[[nodiscard]] double fp8StorageBytes(Fp8Recipe recipe);
// Bytes per parameter of the FP8 weight cache: the FP8 copy and its transpose.
[[nodiscard]] double fp8WeightCacheBytes(Fp8Recipe recipe);

}  // namespace tapestry
