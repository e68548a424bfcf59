#pragma once

#include "cluster/Cluster.h"

namespace tapestry {

// What DeepSpeed ZeRO-3 (as of 2021, ZeroImplementation::DeepSpeed) spends around each
// parameter all-gather besides the collective itself, on the critical path (every gather
// starts with torch.cuda.synchronize(), so nothing else runs meanwhile):
// - a fixed launch cost: DeepSpeed issue #1069 (June 2021) profiled about 130 us of
//   pre-launch and 250 us of launch per parameter all-gather;
// - per rank of the group, host work that grows with the group: DeepSpeed's
//   _allgather_param builds one narrow() view per rank in a Python loop and passes that
//   list to torch.distributed.all_gather, whose NCCL backend gathers into a flat buffer
//   and then copies it out into each rank's view, one copy_ per rank
//   (ProcessGroupNCCL::allgather). kHostSecondsPerRank: about 2 us for the view and 5 us
//   for the copy's dispatch and kernel launch (the few microseconds an eager PyTorch op
//   and a CUDA launch take on the host);
// - the copy itself on the GPU: the gathered bytes read and written once more
//   (pull request #1188 removed this "explicit memcpy after the all-gather op").
// Over hundreds of ranks and about a dozen tensors per layer, the per-rank term
// dominates: it is why Narayanan et al. (SC'21) measured ZeRO-3's step no shorter on
// 1536 A100s than on 768 at the same global batch.
inline constexpr double kDeepSpeedGatherLaunchSeconds = 380e-6;
inline constexpr double kHostSecondsPerRank = 7e-6;

// Seconds per gather of `gatheredBytes` (the full tensor) over `ranks` ranks.
[[nodiscard]] double deepSpeedGatherOverheadSeconds(const GpuSpec& gpu, int ranks, double gatheredBytes);

}  // namespace tapestry
