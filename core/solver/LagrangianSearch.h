#pragma once

#include "solver/ShardingProblem.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>

namespace tapestry {

// Lagrangian relaxation of the memory limit with one multiplier per time point. Each
// iteration prices usage at the multipliers, reduces the relaxed (limit-free) problem
// exactly (ProblemReducer: with memory priced every leaf and chain folds away), solves
// its core by message passing (TRW-S) and polishes the decoded assignment with
// LocalSearch (which also clears the forbidden pairs a greedy decoding leaves),
// repairs the result into a feasible assignment (repairMemory), polishes it with the
// feasible local search when it is within a few per cent of the best repaired plan so
// far (the repaired cost alone does not tell which basin polishes best), and
// moves the multipliers along the subgradient (usage - limit per time point) with a
// Polyak step towards the best feasible cost of its own plans. Returns the best
// feasible assignment seen, starting from `feasibleStart` (only a fallback: its steps
// and its end go by its own plans), hands each improvement to `improved` and each
// better lower bound on the optimum (the dual value, from MessagePassing::lowerBound of
// the priced core) to `bounded`, on the calling thread, as they are found. Without a
// limit it is one relaxed solve. Memory is per time point: give it a problem whose time
// is compressed (withCompressedTime). It stops at `softDeadline` once one of its own
// plans avoids forbidden costs (kCostCap), at `deadline` in any case.
// Deterministic for a seed up to the deadline.
[[nodiscard]] Assignment searchLagrangian(const ShardingProblem& problem, const Assignment& feasibleStart,
                                          std::uint64_t seed, std::chrono::steady_clock::time_point softDeadline,
                                          std::chrono::steady_clock::time_point deadline, std::stop_token stop = {},
                                          const std::function<void(const Assignment&)>& improved = {},
                                          const std::function<void(double)>& bounded = {});

}  // namespace tapestry
