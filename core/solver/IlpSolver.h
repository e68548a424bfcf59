#pragma once

#include "solver/ShardingProblem.h"

#include <optional>
#include <stop_token>

namespace tapestry {

struct IlpOutcome {
    std::optional<Assignment> assignment;  // best found, feasible
    bool provenOptimal = false;
    // CBC's bound on the optimum (forbidden cells excluded); meaningful when an
    // assignment is present.
    double lowerBound = 0;
};

// Solves a ShardingProblem exactly with COIN-OR CBC (solveWithCbc, with its standalone
// defaults), the model built in memory: one binary per node strategy, one continuous
// variable per edge cell tied to both ends by marginal equalities (sum over a row or
// column = the end's binary), and one knapsack row per interval start where the limit
// can bind. Costs at or above kCostCap are forbidden (bound to zero) instead of
// entering the objective. `start`, when given, must fit the memory limit; unless it
// uses a forbidden cost it is handed to CBC as its first incumbent. Meant for small or
// reduced problems; a call that cannot get CBC (busy with another solve) before its
// time is up returns no assignment. A stop request ends the solve at CBC's next event
// with the best solution found so far.
[[nodiscard]] IlpOutcome solveWithIlp(const ShardingProblem& problem, double timeLimitSeconds,
                                      const Assignment* start = nullptr, std::stop_token stop = {});

}  // namespace tapestry
