#pragma once

namespace tapestry {

// Communication that runs beside compute (training.md, "Overlap"): data-parallel
// gradient reduction under the backward pass, FSDP gathers under the previous block.
// The communication goes in `buckets` equal parts; the last one (the first block's
// gradients, or the first gather) has no compute left to hide behind, the others hide
// under at most `hidingComputeSeconds`:
//   exposed = last + max(0, communication - last - hidingComputeSeconds),
//   last = communication / buckets.
// What hides is not free: the collective's kernels take SMs and memory bandwidth from
// the compute beside it, which runs slower by kComputeSlowdownBesideCommunication (Lee
// et al., arXiv 2507.03114, 2025: 18.9 % on average over GPT and Llama layers on A100,
// H100, MI250 and MI210; a profile on NVIDIA's developer forum, 2025, shows an NCCL
// all-gather beside a GEMM holding 24 of an H100's 132 SMs). A window of h seconds of hidden communication thus holds h / 1.189 seconds of
// compute, and the step grows by h * 0.189 / 1.189 (hiddenCommunicationCost):
//   exposed += hidden * s / (1 + s).
// Never negative, never more than the communication, and never less than the last bucket.
inline constexpr double kComputeSlowdownBesideCommunication = 0.189;

// Seconds the step grows by while `hiddenSeconds` of communication run beside compute.
[[nodiscard]] inline double hiddenCommunicationCost(double hiddenSeconds)
{
    return hiddenSeconds * kComputeSlowdownBesideCommunication / (1 + kComputeSlowdownBesideCommunication);
}

[[nodiscard]] double exposedCommunicationSeconds(double communicationSeconds, double hidingComputeSeconds,
                                                 int buckets);

}  // namespace tapestry
