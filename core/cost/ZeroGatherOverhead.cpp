#include "cost/ZeroGatherOverhead.h"

#include "cost/KernelTime.h"

namespace tapestry {

double deepSpeedGatherOverheadSeconds(const GpuSpec& gpu, int ranks, double gatheredBytes)
{
    return kDeepSpeedGatherLaunchSeconds + ranks * kHostSecondsPerRank + memoryBoundSeconds(gpu, 2 * gatheredBytes);
}

}  // namespace tapestry
