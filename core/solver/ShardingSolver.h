#pragma once

#include "solver/ProblemReducer.h"
#include "solver/ShardingProblem.h"

#include <cstdint>
#include <functional>
#include <stop_token>

namespace tapestry {

struct SolverOptions {
    double timeLimitSeconds = 60.0;
    std::uint64_t seed = 1;
    int threads = 2;
    // Called from the calling thread whenever the best cost improves.
    std::function<void(double elapsedSeconds, CostSum cost)> progress;
    // A stop request ends the search early with the best feasible assignment so far.
    std::stop_token stop;
};

struct SolverResult {
    Assignment assignment;  // of the original problem
    CostSum cost = 0;
    bool provenOptimal = false;
    bool cancelled = false;
    ReductionStats reduction;
    std::size_t reducedNodes = 0;
    std::size_t reducedEdges = 0;
};

// The general solver. Exact reductions (ProblemReducer) first; then, when the reduced
// problem is small, CBC on all of it (with the Lagrangian search on the other thread
// as a fallback); otherwise the Lagrangian search on both threads for a quarter of
// the time, then rounds in which one thread re-solves regions exactly with CBC and
// the other runs the feasible local search, sharing the best assignment (the region
// solves stop early, as CBC may overrun its limit; local search alone ends). Always
// returns a feasible assignment; throws Error(InfeasibleProblem) naming the time point
// at which even the smallest usages exceed the limit. Each thread's steps are fixed by
// the seed; the time limit decides how many of them run, so results for one seed vary
// with machine speed and load.
[[nodiscard]] SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options);

}  // namespace tapestry
