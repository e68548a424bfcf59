#pragma once

#include "solver/ProblemReducer.h"
#include "solver/ShardingProblem.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>

namespace tapestry {

struct SolverOptions {
    double timeLimitSeconds = 60.0;
    // The time limit counts from here (the CLI passes its process start, so reading the
    // file counts too); unset: from the call.
    std::optional<std::chrono::steady_clock::time_point> startedAt;
    std::uint64_t seed = 1;
    int threads = 2;
    // Called from the calling thread whenever the best cost improves (at most a few
    // times a second), and whenever the lower bound on the optimum rises.
    std::function<void(double elapsedSeconds, CostSum cost)> progress;
    std::function<void(double elapsedSeconds, CostSum lowerBound)> bounded;
    // A stop request ends the search early with the best feasible assignment so far.
    std::stop_token stop;
};

struct SolverResult {
    Assignment assignment;  // of the original problem
    CostSum cost = 0;
    // No assignment costs less: the Lagrangian dual, CBC's bound or the cost itself
    // when proven optimal. Forbidden costs count as kCostCap.
    CostSum lowerBound = 0;
    bool provenOptimal = false;
    bool cancelled = false;
    // A worker (CBC between its checks, a long sweep) was still busy at the deadline and
    // was left to finish on its own: a program that exits now should not wait for it
    // (its static objects may go while it runs), e.g. std::_Exit after flushing.
    bool workLeftRunning = false;
    ReductionStats reduction;
    std::size_t reducedNodes = 0;
    std::size_t reducedEdges = 0;
    // Whether the exact engine (CBC on the whole reduced problem) had a core.
    bool exactEngine = false;
    // CPU-seconds the exact engine's thread took (CBC, its neighbourhoods and region
    // re-solves), when it finished before the answer: on a core of its own its work fits
    // the limit when this does, whatever the machine's load. Not counted: the reductions
    // and the first plan, on the calling thread before the workers start (a fraction of
    // a second on 1,000-node problems), and the other worker.
    std::optional<double> exactCpuSeconds;
};

// What the portfolio runs on a reduced problem, decided by its measured features.
struct PortfolioChoice {
    // CBC on the whole problem gets a core: at most about a thousand nodes with a choice
    // and an exact model (ilpCellCount) of at most a million columns, or at most 600 k
    // edge cells in all.
    bool exactEngine = false;
    // That CBC runs its primal heuristics: its model has at most 50 k edge columns.
    bool exactHeuristics = false;
    // Without them, on a model of at least 150 k edge columns, that CBC stops as soon as
    // its root's relaxation disagrees with the best plan in hand, and that neighbourhood
    // is solved exactly before CBC runs again (elsewhere only at half the time, when its
    // tree has found no better plan).
    bool neighbourhoodAtRoot = false;
};
[[nodiscard]] PortfolioChoice portfolioChoice(const ShardingProblem& reduced);

// (cost - lowerBound) / cost, 0 for a zero cost.
[[nodiscard]] double optimalityGap(CostSum cost, CostSum lowerBound);

// The general solver. Exact reductions (ProblemReducer) on the problem with compressed
// time first; then worker threads (`threads`, at least one) search while the calling
// thread only watches the clock, reports progress and returns the best feasible
// assignment at the deadline (the time limit less a small margin for returning),
// leaving a worker that has not stopped to finish on its own. Feasibility first: the
// start is startAssignment's (the cheapest of per-node and greedy plans that fit), and
// while it pays forbidden costs one worker runs the local search
// (whose moves along forced edges switch whole groups) until a plan avoids them. The
// portfolio decides by the reduced problem's measured features, not by its name
// (portfolioChoice): when it is small, one worker runs CBC on all of it, with its
// primal heuristics only on a model of at most 50 k edge columns, handing on its
// incumbents; where the root's relaxation disagrees with the best plan (on a model of
// at least 150 k columns as soon as the root is in, on a smaller one at half the time,
// when its tree has found no better plan), CBC stops there and that neighbourhood is solved exactly (RINS)
// before CBC runs again, pruning by the better plan (past half the time only while
// its bound is within 5 % of the best plan; else it turns to region re-solves, and to
// CBC on the whole once more when they bring the plan that close), and the other the
// Lagrangian search where the limit binds (the cheapest plan overflows it), then the
// feasible local search; otherwise all run the Lagrangian search for a quarter of the time
// (one goes on, up to 60 % of it, while its own repaired plans still pay forbidden
// costs), then one re-solves regions exactly with CBC and the others run the
// feasible local search, sharing the best assignment between rounds. A problem the
// reductions decide entirely (no node left with a choice) returns at once, proven
// optimal. Always returns a feasible assignment; throws Error(InfeasibleProblem) naming the time point at which
// even the smallest usages exceed the limit. Each worker's steps are fixed by the
// seed; the time limit decides how many of them run, so results for one seed vary
// with machine speed and load.
[[nodiscard]] SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options);

}  // namespace tapestry
