#pragma once

#include "solver/ShardingProblem.h"
#include "solver/SolutionEvaluator.h"

#include <cstdint>
#include <vector>

namespace tapestry {

// One assignment of a sharding problem with what the views show of it: its costs and
// feasibility, and its memory usage over time.
struct ShardingSolution {
    Assignment assignment;
    SolutionEvaluation evaluation;
    UsageProfile usage;

    // Throws Error(InvalidArgument) when `assignment` does not fit `problem`.
    [[nodiscard]] static ShardingSolution evaluate(const ShardingProblem& problem, Assignment assignment);
};

}  // namespace tapestry
