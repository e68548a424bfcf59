#pragma once

#include "solver/ShardingProblem.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tapestry {

// What an assignment costs and whether it fits the memory limit. Independent of the
// solver on purpose: it recomputes everything from the problem.
struct SolutionEvaluation {
    CostSum cost = 0;  // nodeCost + edgeCost
    CostSum nodeCost = 0;
    CostSum edgeCost = 0;
    bool feasible = true;
    // The earliest time point whose usage exceeds the limit, and that usage.
    std::optional<std::int64_t> firstViolation;
    std::int64_t violationUsage = 0;
    std::int64_t peakUsage = 0;
};

// Throws Error(InvalidArgument) when the assignment has the wrong length or names a
// strategy a node does not have.
[[nodiscard]] SolutionEvaluation evaluateSolution(const ShardingProblem& problem, const Assignment& assignment);

// The usage at every time point 0 .. (largest interval end - 1) under an assignment
// (validated like evaluateSolution), for memory-over-time views.
[[nodiscard]] std::vector<std::int64_t> usageOverTime(const ShardingProblem& problem, const Assignment& assignment);

// The earliest time point at which even each node's smallest usage exceeds the limit:
// then no assignment is feasible. nullopt when some assignment fits (or no limit).
[[nodiscard]] std::optional<std::int64_t> firstUnavoidableOverload(const ShardingProblem& problem);

// "1234567" for a 128-bit sum.
[[nodiscard]] std::string costToString(CostSum cost);

}  // namespace tapestry
