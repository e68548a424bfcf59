#pragma once

#include "cluster/CollectiveKind.h"
#include "cluster/LinkClass.h"

#include <array>
#include <cstddef>
#include <vector>

namespace tapestry {

// Per-device time of one training step, split by what it is spent on. Communication is
// counted as exposed (no overlap with compute), the conservative reading.
// Invariant: the sum of byCollective equals the sum of byLink and of byAxis.
struct TimeBreakdown {
    double computeSeconds = 0;
    std::array<double, 4> byCollective{};  // indexed by CollectiveKind
    std::array<double, 2> byLink{};        // indexed by LinkClass
    std::vector<double> byAxis;            // indexed by mesh axis

    [[nodiscard]] double communicationSeconds() const;
    [[nodiscard]] double stepSeconds() const { return computeSeconds + communicationSeconds(); }
    void add(const TimeBreakdown& other);
};

// Per-device memory in bytes, by category.
struct MemoryBreakdown {
    double parameters = 0;
    double gradients = 0;
    double optimizerStates = 0;
    double activations = 0;  // saved for the backward pass
    double transient = 0;    // the largest temporary buffer (counted once, at its node)

    [[nodiscard]] double total() const { return parameters + gradients + optimizerStates + activations + transient; }
    void add(const MemoryBreakdown& other);
};

struct CostBreakdown {
    TimeBreakdown time;
    MemoryBreakdown memory;
    void add(const CostBreakdown& other);
};

}  // namespace tapestry
