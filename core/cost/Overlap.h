#pragma once

namespace tapestry {

// Communication that runs beside compute (training.md, "Overlap"): data-parallel
// gradient reduction under the backward pass, FSDP gathers under the previous block.
// The communication goes in `buckets` equal parts; the last one (the first block's
// gradients, or the first gather) has no compute left to hide behind, the others hide
// under at most `hidingComputeSeconds`:
//   exposed = last + max(0, communication - last - hidingComputeSeconds),
//   last = communication / buckets.
// Never negative, never more than the communication, and never less than the last bucket.
[[nodiscard]] double exposedCommunicationSeconds(double communicationSeconds, double hidingComputeSeconds,
                                                 int buckets);

}  // namespace tapestry
