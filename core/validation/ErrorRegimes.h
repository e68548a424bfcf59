#pragma once

#include "validation/PublishedRun.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tapestry {

// Where a run sits in each dimension along which the cost model's errors are known to
// take shapes (issue 25): the GPU, the sequence length, the GPU count, the technique, the
// attention kernel and the recomputation. One regime per dimension: ("gpu",
// "H100-SXM5-80GB"), ("sequence", "2049-8192"), ("gpus", "9-64"), ("technique",
// "FSDP / ZeRO-3"), ("attention", "FlashAttention-2"), ("recompute", "full").
struct RunRegime {
    std::string dimension;
    std::string regime;
};
[[nodiscard]] std::vector<RunRegime> regimesOf(const PublishedRun& run);

// The step-time errors of one regime.
struct RegimeError {
    std::string dimension;
    std::string regime;
    std::size_t cases = 0;
    double medianAbsoluteError = 0;
    double maximumAbsoluteError = 0;
    double meanSignedError = 0;
};

// Gathers the priced runs' signed relative step-time errors by regime.
class ErrorRegimes {
public:
    void add(const PublishedRun& run, double signedError);
    // Dimensions in the order above; within one, bands in their order, other regimes in
    // the order of their first case.
    [[nodiscard]] std::vector<RegimeError> summary() const;

private:
    std::vector<std::pair<std::string, std::string>> order_;
    std::map<std::pair<std::string, std::string>, std::vector<double>> errors_;
};

}  // namespace tapestry
