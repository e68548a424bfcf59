#include "cost/FsdpGradientCopies.h"

#include "cost/KernelTime.h"

namespace tapestry {

double fsdpCopyBytesPerParameter(ZeroImplementation implementation, int zeroStage, double reduceBytes,
                                 double shardRanks)
{
    if (zeroStage < 2)
        return 0;
    // The counts are for an fp32 reduce of 16-bit gradients: every fp32 byte written or
    // read in the reduce type, and no cast at all in the gradient's own type.
    constexpr double kFp32 = 4;
    constexpr double kGradient = 2;
    switch (implementation) {
    case ZeroImplementation::Fsdp: {
        const double cast = reduceBytes == kGradient ? 0.0 : kGradient + reduceBytes;
        return kFsdp1GradientBytesPerParameter - (kGradient + kFp32) - 2 * kFp32 + cast + 2 * reduceBytes;
    }
    case ZeroImplementation::Fsdp2:
        return kFsdp2ReduceBytesPerParameter - kFp32 + reduceBytes +
               (zeroStage >= 3 ? 2 : 1) * kFsdp2GatherCopyBytesPerParameter;
    case ZeroImplementation::MegatronFsdp: {
        const double scale = reduceBytes == kGradient ? kMegatronFsdpBf16ScaleBytesPerParameter : 0.0;
        return scale + 3 * reduceBytes / shardRanks;
    }
    case ZeroImplementation::DeepSpeed: break;
    }
    return 0;
}

double fsdpGradientCopySeconds(const GpuSpec& gpu, double unshardedParameters, ZeroImplementation implementation,
                               int zeroStage, double reduceBytes, double shardRanks)
{
    return memoryBoundSeconds(gpu, unshardedParameters *
                                       fsdpCopyBytesPerParameter(implementation, zeroStage, reduceBytes, shardRanks));
}

}  // namespace tapestry
