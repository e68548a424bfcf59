#pragma once

#include "solver/ShardingProblem.h"

#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace tapestry {

struct IlpOutcome {
    std::optional<Assignment> assignment;  // best found, feasible
    bool provenOptimal = false;
    // The search ran to its end: no plan costs less than both `assignment` (when any)
    // and the last IlpHooks::knownCost it read.
    bool complete = false;
    // CBC's bound on the optimum (forbidden cells excluded); meaningful when an
    // assignment is present.
    double lowerBound = 0;
};

// What a caller hears from a running exact solve (on the thread that calls
// solveWithIlp).
struct IlpHooks {
    // Each incumbent CBC finds.
    std::function<void(const Assignment&)> improved;
    // CBC's bound on the optimum each time it rises (from the root's on).
    std::function<void(double bound)> bounded;
    // The cost of the best plan known elsewhere (a search running beside it), polled
    // between nodes: CBC drops what cannot beat it, so a proof need not wait for its own
    // tree to find the plan (generated ti-3d-816: CBC alone proves the optimum within
    // 3 s of finding it, and finding it took 4 to 107 s in runs whose models differed
    // only in how the memory rows were written).
    std::function<CostSum()> knownCost;
    // The root's relaxation after CBC's cuts, once: per node, the weight of each of its
    // strategies (they sum to 1).
    std::function<void(const std::vector<std::vector<double>>& weights)> relaxed;
};

// Solves a ShardingProblem exactly with COIN-OR CBC (solveWithCbc, with its standalone
// defaults), the model built in memory. Nodes joined by forced edges (each strategy
// allowed with at most one of the neighbour's: a layout that must match) form groups
// that choose together: one binary per group strategy allowed for every member, its
// cost their node and inner edge costs. Each edge between groups (parallel ones
// merged) has one continuous variable per allowed cell, tied to both ends by marginal
// equalities (sum over a row or column = the end's binary; forbidden cells have no
// variable), and one knapsack row per interval start where the limit can bind sums the
// members' usages (their covers, violatedCover, go to CBC as cuts). On a view-heavy
// problem (Transformer inference, 816 nodes, 3-D mesh) that is 0.2 M instead of 0.5 M
// columns and a proof in about a minute instead of none in two. Costs at or above kCostCap are forbidden. `start`, when given, must fit the
// memory limit; unless it uses a forbidden cost it is handed to CBC as its first
// incumbent. `primalHeuristics` off leaves finding solutions to the branch and bound
// (faster on a whole problem whose LP is nearly integral; see CbcSettings::heuristics).
// Meant for small or reduced problems; a call that cannot get CBC (busy with another
// solve) before its time is up returns no assignment. A stop request ends the solve at
// CBC's next event with the best solution found so far.
[[nodiscard]] IlpOutcome solveWithIlp(const ShardingProblem& problem, double timeLimitSeconds,
                                      const Assignment* start = nullptr, std::stop_token stop = {},
                                      bool primalHeuristics = true, const IlpHooks& hooks = {});

// The allowed cells of the edges that are not forced: about the number of columns of
// solveWithIlp's model, which decides whether CBC can solve the problem in time.
[[nodiscard]] std::size_t ilpCellCount(const ShardingProblem& problem);

}  // namespace tapestry
