#pragma once

namespace tapestry {

// Communication that runs beside compute (training.md, "Overlap"): data-parallel
// gradient reduction under the backward pass, FSDP gathers under the previous block.
// The communication goes in `buckets` equal parts; the last one (the first block's
// gradients, or the first gather) has no compute left to hide behind, the others hide
// under the `hidingComputeSeconds` H. What hides is not free: the collective's kernels
// take SMs and memory bandwidth from the compute beside it, which runs slower by
// s = kComputeSlowdownBesideCommunication (Lee et al., arXiv 2507.03114, 2025: 18.9 % on
// average over GPT and Llama layers on A100, H100, MI250 and MI210; a profile on NVIDIA's
// developer forum, 2025, shows an NCCL all-gather beside a GEMM holding 24 of an H100's
// 132 SMs). With O = communication - last running beside H: when H (1 + s) <= O the
// communication sets the pace and O - H shows; otherwise the compute runs slowed for O
// seconds and finishes O s / (1 + s) late (hiddenCommunicationCost(O)):
//   exposed = last + max(O - H, O s / (1 + s)),   last = communication / buckets.
// Never negative, never more than the communication, and never less than the last bucket.
inline constexpr double kComputeSlowdownBesideCommunication = 0.189;

// Seconds the step grows by while `hiddenSeconds` of communication run beside compute
// that outlasts it.
[[nodiscard]] inline double hiddenCommunicationCost(double hiddenSeconds)
{
    return hiddenSeconds * kComputeSlowdownBesideCommunication / (1 + kComputeSlowdownBesideCommunication);
}

[[nodiscard]] double exposedCommunicationSeconds(double communicationSeconds, double hidingComputeSeconds,
                                                 int buckets);

}  // namespace tapestry
