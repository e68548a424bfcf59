#include "cost/KernelTime.h"

#include <algorithm>

namespace tapestry {

double matmulSeconds(const GpuSpec& gpu, double flops, double bytes)
{
    return std::max(flops / (gpu.peakFlopsPerSecond * gpu.achievableFraction), memoryBoundSeconds(gpu, bytes));
}

double fusedAttentionSeconds(const GpuSpec& gpu, double flops)
{
    return flops / (gpu.peakFlopsPerSecond * gpu.attentionFraction);
}

double memoryBoundSeconds(const GpuSpec& gpu, double bytes)
{
    return bytes / (gpu.hbmBytesPerSecond * kHbmShare);
}

}  // namespace tapestry
