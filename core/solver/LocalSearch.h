#pragma once

#include "solver/ShardingProblem.h"
#include "solver/UsageTree.h"

#include <cstdint>
#include <random>
#include <vector>

namespace tapestry {

// Large-neighbourhood local search that stays feasible. Each move grows a random
// induced tree of nodes, re-optimizes their strategies exactly by dynamic programming
// with every other node fixed, and keeps the result when it fits the memory limit.
// The memory limit is relaxed in a Lagrangian way inside the tree DP: each time point
// carries a multiplier; a move rejected for overloading time point t raises t's
// multiplier just enough to make that move unattractive (a subgradient step scaled by
// the move's gain), and multipliers decay slowly. Occasional noisy moves and returns
// to the best assignment make it an iterated local search.
// Edges that allow at most one partner per strategy on either side (the rest of their
// matrix forbidden: a layout that must match its neighbour's) chain nodes into groups
// that can only change together, often thousands around one hub. With the limit
// enforced, some moves (a quarter of the work at most) grow their tree along such edges
// only, without the size bound, so that a whole group can switch. Not on relaxed
// problems: there they pulled the Lagrangian search's decodings off (A at 30 s: 7.20e9
// with them, 6.57e9 without).
// Deterministic: the same problem, start and seed give the same sequence of moves.
class LocalSearch {
public:
    // `start` must be feasible when `enforceLimit`. Costs are assumed capped
    // (ProblemReducer's kCostCap). Without `enforceLimit` the memory limit is ignored
    // (for relaxed problems whose usage is already priced into the costs).
    LocalSearch(const ShardingProblem& problem, const Assignment& start, std::uint64_t seed, bool enforceLimit = true);

    [[nodiscard]] const Assignment& current() const { return x_; }

    void run(std::int64_t moves);
    // Continue from another (feasible) assignment, e.g. a better one found elsewhere.
    void restartFrom(const Assignment& assignment);

    [[nodiscard]] const Assignment& best() const { return best_; }
    // Forbidden costs count as kCostCap each, summed in 128 bits.
    [[nodiscard]] CostSum bestCost() const { return bestCost_; }
    [[nodiscard]] CostSum currentCost() const { return cost_; }

private:
    struct Arc {
        int to;
        int edge;
        bool fromIsU;
        bool forced;  // at most one allowed partner per strategy on either side
    };

    [[nodiscard]] std::int64_t edgeCost(const Arc& arc, int sFrom, int sTo) const;
    [[nodiscard]] std::int64_t nodeCost(int node, int s) const { return costs_[offsets_[node] + s]; }
    [[nodiscard]] std::int64_t usage(int node, int s) const { return usages_[offsets_[node] + s]; }
    [[nodiscard]] CostSum totalCost(const Assignment& x) const;
    [[nodiscard]] double penaltyRate(int node) const;
    void addPenalty(std::int64_t time, double amount);
    void decayPenalties();
    void setStrategy(int node, int s);
    // Returns the DP's work, the sum over tree edges of |S(parent)| |S(child)|.
    std::int64_t growTree(int root, int size, bool forcedOnly);
    bool move(double noise);

    const ShardingProblem& problem_;
    int nodeCount_ = 0;
    std::vector<int> strategies_;
    std::vector<std::size_t> offsets_;
    std::vector<std::int64_t> costs_;
    std::vector<std::int64_t> usages_;
    std::vector<std::size_t> arcStart_;
    std::vector<Arc> arcs_;
    std::vector<int> movable_;  // nodes with more than one strategy
    std::vector<int> forcedRoots_;  // movable nodes with a forced arc
    bool limited_ = false;
    bool enforce_ = true;
    std::int64_t limit_ = 0;
    UsageTree usageTree_;

    // Multipliers per time point, in a Fenwick tree for interval sums, times scale_.
    std::vector<double> penalties_;
    double penaltyScale_ = 1.0;

    Assignment x_;
    CostSum cost_ = 0;
    Assignment best_;
    CostSum bestCost_ = 0;
    std::int64_t movesSinceBest_ = 0;
    std::int64_t moveCount_ = 0;
    std::int64_t plainWork_ = 0;
    std::int64_t forcedWork_ = 0;
    std::mt19937_64 random_;

    // Scratch of one move, kept to avoid reallocation.
    std::vector<int> tree_;
    std::vector<int> parent_;
    std::vector<int> parentArc_;
    std::vector<int> mark_;
    int markEpoch_ = 0;
    std::vector<std::size_t> valueOffset_;
    std::vector<double> values_;
    std::vector<int> choices_;
    std::vector<std::size_t> choiceOffset_;
    std::vector<int> proposal_;
};

}  // namespace tapestry
