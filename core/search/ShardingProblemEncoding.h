#pragma once

#include "cost/CostModel.h"
#include "search/StrategyGroup.h"
#include "solver/ShardingProblem.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace tapestry {

// The search problem over strategy groups (SearchTerms) as the general solver's
// node/edge/memory problem (IOPDDL's), exactly up to rounding:
// - node i < groups.size() is group i; its strategies are the group's candidates, its
//   costs the node terms in whole nanoseconds (bytes when minimizing memory), its
//   usages the memory terms in whole bytes at the one time point 0, and usageLimit the
//   memory limit in whole bytes (rounded down);
// - a pair term is an edge between its two groups, in nanoseconds;
// - a shared conversion (each layout converted once, whichever consumers need it) that
//   only one group needs is an edge between the producer and that group (or a node
//   cost when they are one group); one that several groups need is a hub node with two strategies, 0 "not converted" and 1 "converted", that uses no
//   memory: an edge to the producer costs the producer's price when the hub is 1, and
//   an edge to each consumer group forbids (kForbiddenCost) a needing candidate with
//   the hub at 0. Edges joining the same two nodes are merged.
// For a choice of candidates, the cheapest hub states are "converted iff needed", so
// the problem's optimum is the integer program's optimum in nanoseconds, within half a
// nanosecond per term of rounding.
class ShardingProblemEncoding {
public:
    // The contest's "forbidden" cost; the solver treats anything at or above kCostCap so.
    static constexpr std::int64_t kForbiddenCost = 1'000'000'000'000'000'000;
    static constexpr double kUnitsPerSecond = 1e9;

    // Throws Error(InvalidArgument) if a group is empty of members or candidates, or a
    // term does not fit below kCostCap (over eleven days in one term).
    ShardingProblemEncoding(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
                            std::optional<double> memoryLimitBytes, bool minimizeMemory);

    [[nodiscard]] const ShardingProblem& problem() const { return problem_; }
    // The candidate index per group that an assignment of problem() picks.
    [[nodiscard]] std::vector<std::size_t> choiceOf(const Assignment& assignment) const;
    // The cheapest assignment of problem() with this candidate per group.
    [[nodiscard]] Assignment assignmentOf(const std::vector<std::size_t>& choice) const;
    // The same for a plan's strategies; throws Error(InvalidPlan) if the plan gives a
    // group's members different strategies or one that is not among its candidates.
    [[nodiscard]] Assignment assignmentOf(const Plan& plan) const;

private:
    struct Hub {
        int node = 0;
        std::vector<std::pair<std::size_t, std::vector<std::size_t>>> needing;  // as SearchTerms::SharedConversion
    };

    std::vector<StrategyGroup> groups_;
    std::vector<Hub> hubs_;
    ShardingProblem problem_;
};

}  // namespace tapestry
