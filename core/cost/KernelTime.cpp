#include "cost/KernelTime.h"

#include <algorithm>

namespace tapestry {

double matmulSeconds(const GpuSpec& gpu, double flops, double bytes)
{
    return std::max(flops / (gpu.peakFlopsPerSecond * gpu.achievableFraction), memoryBoundSeconds(gpu, bytes));
}

double linearBackwardSeconds(const GpuSpec& gpu, double flops, double inputBytes, double weightBytes,
                             double outputBytes, double weightGradientBytes)
{
    const double dgrad = matmulSeconds(gpu, flops, outputBytes + weightBytes + inputBytes);
    const double wgrad = matmulSeconds(gpu, flops, inputBytes + outputBytes + weightGradientBytes);
    return dgrad + wgrad;
}

double fusedAttentionShare(const GpuSpec& gpu, AttentionKernel kernel)
{
    switch (kernel) {
    case AttentionKernel::Cudnn: return gpu.attentionFraction * gpu.cudnnAttentionSpeedup;
    case AttentionKernel::Triton: return gpu.attentionFraction / kTritonForwardSlowdown;
    case AttentionKernel::FlashAttention2:
    case AttentionKernel::FlashAttention1:
    case AttentionKernel::Unfused: break;
    }
    return gpu.attentionFraction;
}

double fusedAttentionBackwardShare(const GpuSpec& gpu, AttentionKernel kernel)
{
    if (kernel == AttentionKernel::Triton)
        return gpu.attentionFraction / kTritonBackwardSlowdown;
    return fusedAttentionShare(gpu, kernel);
}

double fusedAttentionSeconds(const GpuSpec& gpu, AttentionKernel kernel, double flops, const AttentionCall& call)
{
    return flops / (gpu.peakFlopsPerSecond * fusedAttentionShare(gpu, kernel) *
                    attentionRateShape(kernel, AttentionPass::Forward, call));
}

double fusedAttentionBackwardSeconds(const GpuSpec& gpu, AttentionKernel kernel, double flops,
                                     const AttentionCall& call)
{
    return kAttentionBackwardFlops * flops /
           (gpu.peakFlopsPerSecond * fusedAttentionBackwardShare(gpu, kernel) *
            attentionRateShape(kernel, AttentionPass::Backward, call));
}

double memoryBoundSeconds(const GpuSpec& gpu, double bytes)
{
    return bytes / (gpu.hbmBytesPerSecond * kHbmShare);
}

double fp8StorageBytes(Fp8Recipe recipe)
{
    switch (recipe) {
    case Fp8Recipe::None: return 0;
    case Fp8Recipe::PerTensor: return 1;
    case Fp8Recipe::Block: return 1 + 1.0 / 32;
    }
    return 0;
}

namespace {

// The FP8 copies the quantizer writes of a tensor (see fp8QuantizeBytes): one where the
// GPU's FP8 GEMMs take any layout under per-tensor scaling, the copy and its transpose
// otherwise (MXFP8's row-wise and column-wise blocks on every GPU).
double fp8Copies(const Fp8Rate& fp8, Fp8Recipe recipe)
{
    return recipe == Fp8Recipe::PerTensor && fp8.anyLayout ? 1 : 2;
}

}  // namespace

double fp8WeightCacheBytes(const Fp8Rate& fp8, Fp8Recipe recipe)
{
    return fp8Copies(fp8, recipe) * fp8StorageBytes(recipe);
}

double fp8QuantizeBytes(const Fp8Rate& fp8, Fp8Recipe recipe)
{
    if (recipe == Fp8Recipe::None)
        return 0;
    const double amaxPass = recipe == Fp8Recipe::PerTensor ? 2 : 0;
    return amaxPass + 2 + fp8Copies(fp8, recipe) * fp8StorageBytes(recipe);
}

namespace {

// The rate of block-scaled (MXFP8) GEMMs against per-tensor-scaled FP8 ones of the same
// shapes: Transformer Engine's GEMM profiling guide measured the twelve GEMMs of a layer
// (hidden 4,096, FFN 16,384, 15,872 tokens) with operands quantized beforehand on a B300 at
// 6.812 ms per layer with per-tensor current scaling and 7.161 ms with MXFP8
// (NVIDIA/TransformerEngine docs/examples/gemm_profiling/gemm_profiling.rst): the tensor
// cores' block-scale handling costs about 5 %.
constexpr double kBlockScaledGemmRate = 6.812 / 7.161;

double fp8GemmFlopsPerSecond(const GpuSpec& gpu, Fp8Recipe recipe)
{
    const double perTensor = gpu.fp8.peakFlopsPerSecond * gpu.fp8.achievableFraction;
    return recipe == Fp8Recipe::Block ? perTensor * kBlockScaledGemmRate : perTensor;
}

}  // namespace

Fp8LinearSeconds fp8LinearSeconds(const GpuSpec& gpu, Fp8Recipe recipe, double flops, double inputElements,
                                  double weightElements, double outputElements)
{
    const double operand = fp8StorageBytes(recipe);
    const double gemm = std::max(flops / fp8GemmFlopsPerSecond(gpu, recipe),
                                 memoryBoundSeconds(gpu, (inputElements + weightElements) * operand + outputElements * 2));
    const double perElement = fp8QuantizeBytes(gpu.fp8, recipe);
    Fp8LinearSeconds time;
    time.forward = gemm + memoryBoundSeconds(gpu, inputElements * perElement);
    time.backward = 2 * gemm + memoryBoundSeconds(gpu, outputElements * perElement);
    time.weightCast = memoryBoundSeconds(gpu, weightElements * perElement);
    return time;
}

}  // namespace tapestry
