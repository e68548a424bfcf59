#pragma once

#include "solver/ProblemReducer.h"
#include "solver/ShardingProblem.h"

#include <cstdint>
#include <functional>

namespace tapestry {

struct SolverOptions {
    double timeLimitSeconds = 60.0;
    std::uint64_t seed = 1;
    int threads = 2;
    // Called from the calling thread whenever the best cost improves.
    std::function<void(double elapsedSeconds, CostSum cost)> progress;
};

struct SolverResult {
    Assignment assignment;  // of the original problem
    CostSum cost = 0;
    bool provenOptimal = false;
    ReductionStats reduction;
    std::size_t reducedNodes = 0;
    std::size_t reducedEdges = 0;
};

// The general solver: exact reductions (ProblemReducer), then an exact ILP when the
// reduced problem is small, otherwise local search on all threads. Always returns a
// feasible assignment; throws Error(InfeasibleProblem) naming the time point at which
// even the smallest usages exceed the limit. For a given seed the sequence of search
// steps is fixed; the time limit decides how many of them run.
[[nodiscard]] SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options);

}  // namespace tapestry
