#pragma once

#include "solver/ShardingProblem.h"

#include <algorithm>
#include <cstdint>

namespace tapestry {

// The end of the problem's time axis: the latest interval end of any node, at least 1, so
// that a usage profile over [0, horizon) always has a point.
[[nodiscard]] inline std::int64_t timeHorizon(const ShardingProblem& problem)
{
    std::int64_t horizon = 1;
    for (const ProblemNode& node : problem.nodes)
        horizon = std::max(horizon, node.hi);
    return horizon;
}

}  // namespace tapestry
