#pragma once

#include "cluster/CollectiveKind.h"
#include "cluster/LinkClass.h"
#include "cost/AxisSeconds.h"

#include <array>
#include <cstddef>

namespace tapestry {

// Per-device time of one training step, split by what it is spent on.
// Communication is counted in full by collective, link and axis; the part of it that
// runs while the device computes (data-parallel gradient reduction under backward,
// FSDP gathers under the previous block) is `hiddenSeconds`; the rest, the exposed
// communication (with the slowdown of the compute beside what hides, Overlap.h), adds to
// the step. Ring attention's exchange (context parallelism) counts only its exposed part.
// Invariants: the sum of byCollective equals the sum of byLink and of byAxis;
// 0 <= hiddenSeconds <= communicationSeconds(); recomputeSeconds and optimizerSeconds
// are parts of computeSeconds.
struct TimeBreakdown {
    double computeSeconds = 0;
    double recomputeSeconds = 0;  // forward work repeated in backward (activation recomputation)
    double optimizerSeconds = 0;  // the optimizer's update of the local parameters
    std::array<double, 4> byCollective{};  // indexed by CollectiveKind
    std::array<double, 2> byLink{};        // indexed by LinkClass
    AxisSeconds byAxis;                    // indexed by mesh axis
    // The data-parallel part of the communication (gradient reduction, ZeRO gathers and
    // scatters): the only part that may hide under compute, so hiddenSeconds <= it.
    double dataParallelSeconds = 0;
    double hiddenSeconds = 0;
    // Pipelines only: the point-to-point sends between stages (exposed) and the time a
    // stage waits for the others (fill and drain, their once-per-step work).
    double pipelineSendSeconds = 0;
    double bubbleSeconds = 0;

    [[nodiscard]] double communicationSeconds() const;
    [[nodiscard]] double exposedCommunicationSeconds() const { return communicationSeconds() - hiddenSeconds; }
    [[nodiscard]] double stepSeconds() const
    {
        return computeSeconds + exposedCommunicationSeconds() + pipelineSendSeconds + bubbleSeconds;
    }
    // Adds `count` times `other` (count equal parts priced once; times 1 is exact).
    void add(const TimeBreakdown& other, double count = 1.0);
};

// Per-device memory in bytes, by category.
struct MemoryBreakdown {
    double parameters = 0;
    double gradients = 0;
    double optimizerStates = 0;
    double activations = 0;  // saved for the backward pass
    double transient = 0;    // the largest temporary buffer (counted once, at its node)

    [[nodiscard]] double total() const { return parameters + gradients + optimizerStates + activations + transient; }
    void add(const MemoryBreakdown& other, double count = 1.0);
};

struct CostBreakdown {
    TimeBreakdown time;
    MemoryBreakdown memory;
    void add(const CostBreakdown& other, double count = 1.0);
};

}  // namespace tapestry
