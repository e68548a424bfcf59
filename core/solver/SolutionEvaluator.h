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

// Memory usage over time as steps, however far apart the interval ends: usages[k] holds
// from times[k] until times[k + 1] (the last one until `end`, the largest interval
// end); times[0] == 0, and consecutive steps differ in usage.
struct UsageProfile {
    std::vector<std::int64_t> times;
    std::vector<std::int64_t> usages;
    std::int64_t end = 0;
};

// The profile under an assignment (validated like evaluateSolution).
[[nodiscard]] UsageProfile usageProfile(const ShardingProblem& problem, const Assignment& assignment);

// The earliest time point at which even each node's smallest usage exceeds the limit:
// then no assignment is feasible. nullopt when some assignment fits (or no limit).
[[nodiscard]] std::optional<std::int64_t> firstUnavoidableOverload(const ShardingProblem& problem);

// "1234567" for a 128-bit sum.
[[nodiscard]] std::string costToString(CostSum cost);

}  // namespace tapestry
