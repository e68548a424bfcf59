#include "cost/FsdpGradientCopies.h"

#include "cost/KernelTime.h"

namespace tapestry {

double fsdpGradientCopySeconds(const GpuSpec& gpu, double unshardedParameters)
{
    return memoryBoundSeconds(gpu, unshardedParameters * kFsdpGradientBytesPerParameter);
}

}  // namespace tapestry
