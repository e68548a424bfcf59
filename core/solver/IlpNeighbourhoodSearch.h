#pragma once

#include "solver/ShardingProblem.h"

#include <chrono>
#include <cstdint>
#include <stop_token>

namespace tapestry {

// Large-neighbourhood search with exact steps: repeatedly frees a connected region of
// nodes (a random breadth-first ball), solves that Subproblem with CBC (solveWithIlp)
// from the current strategies, and keeps the result when it is cheaper. The ball grows
// while CBC proves its regions optimal quickly and shrinks when it runs out of time.
// `assignment` must be feasible and stays feasible. Returns true if it improved.
bool improveWithIlpRegions(const ShardingProblem& problem, Assignment& assignment, std::uint64_t seed,
                           std::chrono::steady_clock::time_point deadline, std::stop_token stop = {});

}  // namespace tapestry
