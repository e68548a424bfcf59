#pragma once

#include "solver/ShardingProblem.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace tapestry {

// Costs at or above this are "forbidden" (the contest writes 1e18); the reducer caps
// every cost and every folded sum here so that sums of thousands stay in 64 bits.
inline constexpr std::int64_t kCostCap = 1'000'000'000'000'000;

struct ReductionStats {
    int mergedEdges = 0;
    int eliminatedNodes = 0;
    int removedStrategies = 0;
};

// Exact reductions of a ShardingProblem, as a smaller problem plus the way back:
// - parallel edges merged (costs add);
// - strategies dominated in cost, usage (where it matters) and every incident edge row
//   removed;
// - nodes whose strategy does not matter to memory (no limit, empty interval, equal
//   usages, or alive only at time points where the largest usages of all the nodes
//   alive there sum to at most the limit, so no plan overflows there) eliminated when
//   they have one strategy, degree 0, 1 or 2 (degree 2 only while the folded table
//   stays small): their best response is folded into the neighbours' costs or into an
//   edge between the two neighbours. Their largest usage stays in the reduced problem
//   as a one-strategy, edge-free node.
// Guarantee: for every assignment x of reduced(), cost(expand(x)) == cost_reduced(x) +
// offset() (costs below kCostCap), expand(x) uses at most x's memory at every time
// point (the same, but where an eliminated node's usage cannot overflow the limit),
// and the two problems have the same optimum up to offset().
class ProblemReducer {
public:
    // `interrupted`, when given, is polled now and then: once it returns true the
    // reductions stop where they are (what is done stays exact).
    explicit ProblemReducer(const ShardingProblem& problem, const std::function<bool()>& interrupted = {});

    [[nodiscard]] const ShardingProblem& reduced() const { return *reduced_; }
    // The same, for a holder that may outlive the reducer (the solver's workers), without
    // a copy.
    [[nodiscard]] std::shared_ptr<const ShardingProblem> sharedReduced() const { return reduced_; }
    [[nodiscard]] CostSum offset() const { return offset_; }
    [[nodiscard]] const ReductionStats& stats() const { return stats_; }
    [[nodiscard]] Assignment expand(const Assignment& reducedAssignment) const;
    // The reduced problem's view of an original assignment (for warm starts): each kept
    // node keeps its strategy, or takes its cheapest one if that strategy was removed.
    [[nodiscard]] Assignment restrict(const Assignment& originalAssignment) const;

private:
    struct WorkNode {
        std::vector<std::int64_t> costs;
        std::vector<std::int64_t> usages;
        std::vector<int> original;  // current strategy index -> original index
        std::vector<int> edges;     // incident live edges
        bool alive = true;
    };
    struct WorkEdge {
        int u = 0;
        int v = 0;
        std::vector<std::int64_t> costs;  // |S(u)| x |S(v)|, current strategies
        bool alive = true;
    };
    // How to choose an eliminated node's original strategy from its neighbours'
    // original strategies (table indexed by them; -1 where never needed).
    struct Elimination {
        int node = 0;
        int first = -1;
        int second = -1;
        int secondCount = 1;  // original strategy count of `second`
        std::vector<int> choice;
    };

    void markUsageFree();
    [[nodiscard]] bool memoryFree(int node) const;
    [[nodiscard]] std::int64_t edgeCost(const WorkEdge& edge, int from, int sFrom, int sOther) const;
    [[nodiscard]] int other(const WorkEdge& edge, int node) const { return edge.u == node ? edge.v : edge.u; }
    [[nodiscard]] int findEdge(int a, int b) const;
    void detach(int edge);
    void mergeParallelEdges();
    bool eliminate(int node);
    bool removeDominated(int node);
    void build();

    const ShardingProblem& problem_;
    std::vector<WorkNode> nodes_;
    // Per node: alive only where no plan can overflow the limit (markUsageFree).
    std::vector<char> usageFree_;
    std::vector<WorkEdge> edges_;
    std::vector<Elimination> eliminations_;
    std::shared_ptr<const ShardingProblem> reduced_;
    std::vector<int> reducedToOriginal_;  // reduced node -> original node (-1: usage stub)
    CostSum offset_ = 0;
    ReductionStats stats_;
};

}  // namespace tapestry
