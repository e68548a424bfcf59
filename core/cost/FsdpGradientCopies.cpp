#include "cost/FsdpGradientCopies.h"

#include "cost/KernelTime.h"

namespace tapestry {

double fsdpCopyBytesPerParameter(ZeroImplementation implementation, int zeroStage)
{
    if (zeroStage < 2)
        return 0;
    switch (implementation) {
    case ZeroImplementation::Fsdp: return kFsdp1GradientBytesPerParameter;
    case ZeroImplementation::Fsdp2:
        return kFsdp2ReduceBytesPerParameter + (zeroStage >= 3 ? 2 : 1) * kFsdp2GatherCopyBytesPerParameter;
    case ZeroImplementation::DeepSpeed: break;
    }
    return 0;
}

double fsdpGradientCopySeconds(const GpuSpec& gpu, double unshardedParameters, ZeroImplementation implementation,
                               int zeroStage)
{
    return memoryBoundSeconds(gpu, unshardedParameters * fsdpCopyBytesPerParameter(implementation, zeroStage));
}

}  // namespace tapestry
