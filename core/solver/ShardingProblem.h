#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tapestry {

// Sums of costs: single costs fit in 64 bits, their totals may not.
__extension__ using CostSum = __int128;

// One decision: pick a strategy. Its memory usage counts at the time points
// lo .. hi-1 (half-open; lo == hi uses none).
struct ProblemNode {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    std::vector<std::int64_t> costs;   // per strategy
    std::vector<std::int64_t> usages;  // per strategy, same length as costs

    [[nodiscard]] int strategyCount() const { return static_cast<int>(costs.size()); }
    [[nodiscard]] bool usesMemory() const { return hi > lo; }
};

// A pairwise cost: costs[su * |S(v)| + sv] when u takes su and v takes sv.
struct ProblemEdge {
    int u = 0;
    int v = 0;
    std::vector<std::int64_t> costs;
};

// The node/edge/memory problem (the IOPDDL contest's): choose one strategy per node,
// minimizing node plus edge costs, so that at every time point the usages of the
// nodes alive then sum to at most usageLimit (when there is one).
// Invariants (checked by validate): every node has >= 1 strategy, 0 <= lo <= hi, costs
// and usages are >= 0, the largest usages of all nodes sum to at most 2^63 - 1 (so no
// usage total overflows), edges join two distinct existing nodes and have
// |S(u)| * |S(v)| costs. Parallel edges are allowed; their costs add.
struct ShardingProblem {
    std::string name;
    std::vector<ProblemNode> nodes;
    std::vector<ProblemEdge> edges;
    std::optional<std::int64_t> usageLimit;

    // Throws Error(InvalidShardingProblem, fileName, ...) naming the first broken invariant.
    void validate(const std::string& fileName) const;
};

// The same problem on the time points that matter: usage only changes at interval
// ends, so each distinct end becomes its rank among them. Same costs, same feasible
// assignments; a horizon of 1e9 time points becomes at most twice the node count.
[[nodiscard]] ShardingProblem withCompressedTime(const ShardingProblem& problem);

// One strategy index per node.
using Assignment = std::vector<int>;

}  // namespace tapestry
