#pragma once

#include "cluster/Cluster.h"
#include "cost/AttentionKernelRate.h"
#include "cost/Workload.h"

namespace tapestry {

// How long one kernel runs on one GPU (cost-model.md, "compute"): a roofline in which
// math runs at the share of the peak that real kernels of its kind reach and memory
// traffic at the share of HBM bandwidth that streaming kernels reach.
//
// - Matmuls (cuBLAS GEMMs, forward and each backward one alike): max(flops / (peak x
//   gpu.achievableFraction), bytes / (HBM x kHbmShare)). A small or thin matmul moves
//   many bytes per flop and lands on the bandwidth side, which is how the GEMM
//   efficiency falls with its size instead of one fixed fraction. An H200's cuBLAS GEMMs
//   follow that shape (test_measured_kernel_rates: median 0.99 of it over 287 shapes)
//   except wgrad over 512 tokens or fewer, which runs at about 0.6 of the large GEMMs'
//   rate: its result, written after so short a reduction, is not hidden (README, kernel
//   table; writing every GEMM's result unhidden priced held-out runs worse, so it is not).
// - Fused attention (FlashAttention): flops / (peak x gpu.attentionFraction x the kernel's
//   published rate curve, AttentionKernelRate.h); it keeps the s x s scores on chip, so it
//   moves no score bytes.
// - Memory-bound kernels (normalizations, activations, residual adds, the optimizer):
//   bytes / (HBM x kHbmShare).
//
// kHbmShare 0.8: elementwise and reduction kernels reach 80-90 % of the HBM peak
// (STREAM-like copies on A100 and H100 measure 1.6-1.7 of 2.0 TB/s and 2.6-2.9 of
// 3.35 TB/s); the lower end, because training kernels also read strided and reduce. On an
// H200 (tests/data/kernels) a bf16 copy and add ran 0.86 and 0.89 of its 4.8 TB/s, so no
// memory-bound kernel is priced faster than a copy; layer_norm and GeLU ran 0.60 and 0.64
// there, slower than the share (their SMs, not the faster HBM, bound them; not priced).
inline constexpr double kHbmShare = 0.8;

[[nodiscard]] double matmulSeconds(const GpuSpec& gpu, double flops, double bytes);
// The two backward GEMMs of a linear layer Y = X W, per device, each a roofline of its own:
// dgrad (dX = dY Wᵀ) moves what the forward GEMM moves; wgrad (dW = Xᵀ dY) reads X and dY
// and moves the weight gradient as the stack keeps it: `weightGradientBytes`, written in
// its own precision and, when gradients accumulate over micro-steps, read first (Megatron-
// LM's fused gradient accumulation runs wgrad with beta = 1 into the fp32 main gradient).
// With few tokens per micro-step that traffic, not the math, bounds wgrad (2 x tokens
// flops per weight against 8 bytes under fp32 accumulation): a thin micro-batch does not
// reach the large-GEMM share.
[[nodiscard]] double linearBackwardSeconds(const GpuSpec& gpu, double flops, double inputBytes, double weightBytes,
                                           double outputBytes, double weightGradientBytes);
// The share of the peak a fused attention kernel's forward pass reaches at 16k keys, head
// dim 128, without a mask: gpu.attentionFraction for FlashAttention-2's (and for
// FlashAttention 1.x's, whose rate curve AttentionKernelRate.h sets against it), times
// gpu.cudnnAttentionSpeedup for cuDNN's (Cluster.h says where the speed-up comes from), over
// kTritonForwardSlowdown for the Triton FlashAttention (below). AttentionKernelRate.h shapes
// it by the call's length, head dimension and mask.
[[nodiscard]] double fusedAttentionShare(const GpuSpec& gpu, AttentionKernel kernel);
// The same reference for the backward pass: the forward's for FlashAttention-2 and cuDNN
// (their own backward curves carry how much slower it runs), FlashAttention-2's over
// kTritonBackwardSlowdown for the Triton kernel.
[[nodiscard]] double fusedAttentionBackwardShare(const GpuSpec& gpu, AttentionKernel kernel);
// The Triton FlashAttention (FlashAttention's algorithm written in Triton: one program per
// query tile forward, per key tile backward, dq summed in fp32; what llm-foundry's
// attn_impl: triton runs) against FlashAttention-2 on the same GPU: "FlashAttention-2 is
// around 1.3-1.5x faster than FlashAttention in Triton in the forward pass and around 2x
// faster in the backward pass" (Dao 2023, FlashAttention-2 paper, sec. 4.1, A100 80GB,
// sequences 512-16k, head dim 64 and 128, causal or not). The middle of the forward range.
// The paper timed Triton's own triton.ops.flash_attention, a sibling of llm-foundry's kernel
// (both FlashAttention's first algorithm in Triton); llm-foundry's docstring says the same of
// its own: forward faster than FlashAttention's CUDA one, backward slower. A run or plan
// prices it only where it names it (`--attention triton`, "triton" in a file).
inline constexpr double kTritonForwardSlowdown = 1.4;
inline constexpr double kTritonBackwardSlowdown = 2.0;
// One fused kernel call's forward: flops / (peak x share x attentionRateShape).
[[nodiscard]] double fusedAttentionSeconds(const GpuSpec& gpu, AttentionKernel kernel, double flops,
                                           const AttentionCall& call);
// The backward pass of the same call: five matmuls to the forward's two (it recomputes
// QKᵀ), 2.5 x the forward's flops, at the kernel's backward curve.
inline constexpr double kAttentionBackwardFlops = 2.5;
[[nodiscard]] double fusedAttentionBackwardSeconds(const GpuSpec& gpu, AttentionKernel kernel, double flops,
                                                   const AttentionCall& call);
[[nodiscard]] double memoryBoundSeconds(const GpuSpec& gpu, double bytes);

// One linear layer Y = X W in FP8 (Transformer Engine, torchao float8), per device.
// Each of its three GEMMs (forward; dgrad and wgrad backward) runs at the GPU's FP8 rate
// at gpu.fp8.achievableFraction (MXFP8's block-scaled GEMMs about 5 % slower, as
// Transformer Engine measured them on Blackwell), reading one-byte operands (plus MXFP8's scales) and
// writing 16-bit results, and every operand is quantized first by a memory-bound kernel
// (fp8QuantizeBytes).
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

// Bytes the quantizing kernel moves per element of a 16-bit tensor: it reads the tensor and
// writes the FP8 copies the three GEMMs read.
// - Per-tensor (current) scaling reads the tensor once more before, for its amax, and
//   writes the FP8 copy and, where the GPU's FP8 GEMMs take only the TN layout (Hopper:
//   dgrad and wgrad read the operand transposed), its transpose: 2 + 2 + 1 + 1 bytes; one
//   copy where they take any layout (gpu.fp8.anyLayout, data-center Blackwell: Transformer
//   Engine's quantizer creates the transpose only when !nvte_is_non_tn_fp8_gemm_supported()):
//   2 + 2 + 1.
// - MXFP8 computes each block's scale while casting, and writes row-wise and column-wise
//   copies on every GPU, as their 32-element blocks run along different axes:
//   2 + 2 (1 + 1/32).
// Transformer Engine's GEMM profiling guide checks the ratio: on a B300 its autocast and
// pre-quantized timings of a layer's twelve GEMMs differ by 9.147 - 6.812 = 2.335 ms under
// current scaling and 8.984 - 7.161 = 1.823 ms under MXFP8, 0.781 (2 + 2.0625) / 5 = 0.8125
// here, (2 + 2.0625) / 6 = 0.677 with a transpose (docs/examples/gemm_profiling).
[[nodiscard]] double fp8QuantizeBytes(const Fp8Rate& fp8, Fp8Recipe recipe);

// Bytes per element of one FP8 copy of a tensor under `recipe` (MXFP8 adds a scale byte
// per 32 elements): what a saved FP8 activation takes.
[[nodiscard]] double fp8StorageBytes(Fp8Recipe recipe);
// Bytes per parameter of the FP8 weight cache: the copies the quantizer writes of a weight
// (the same quantizer makes the cache: Transformer Engine keeps the transpose only when
// !nvte_is_non_tn_fp8_gemm_supported()), so one FP8 copy under per-tensor scaling where
// the GPU's FP8 GEMMs take any layout, the copy and its transpose otherwise, and MXFP8's
// row-wise and column-wise copies on every GPU.
[[nodiscard]] double fp8WeightCacheBytes(const Fp8Rate& fp8, Fp8Recipe recipe);

}  // namespace tapestry
