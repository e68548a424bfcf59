#pragma once

#include <algorithm>

namespace tapestry {

// Eager PyTorch frees the gradients between steps (optimizer.zero_grad(set_to_none=True), the
// default since PyTorch 2.0; FSDP2 likewise frees its sharded gradients) and allocates them
// during backward while the activations saved for it are freed, block by block: with one
// micro-step per step, the step peaks either as backward starts (every activation, no
// gradient) or as it ends (every gradient, no activation), whichever holds more. The share of
// the gradients that is live at that peak: none when the activations hold more, else the
// excess over them (what adds to the activations' bytes to give the larger of the two).
// With gradient accumulation the earlier micro-steps' gradients are live throughout.
[[nodiscard]] inline double gradientShareAtPeak(double gradients, double activations)
{
    return gradients > 0 ? std::max(0.0, gradients - activations) / gradients : 1.0;
}

// A lower bound of a step's peak bytes from lower bounds of its parts: `states` (weights and
// optimizer states, with the gradients when they persist between steps) and the activations,
// or, with gradients freed between steps, the larger of those gradients and the activations,
// as they peak apart (above).
[[nodiscard]] inline double peakFloorBytes(double states, double freedGradients, double activations,
                                           bool gradientsFreed)
{
    return states + (gradientsFreed ? std::max(freedGradients, activations) : activations);
}

}  // namespace tapestry
