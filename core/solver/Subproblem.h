#pragma once

#include "solver/ShardingProblem.h"

#include <vector>

namespace tapestry {

// A piece of a ShardingProblem: the strategies of `freeNodes` may change, every other
// node keeps its strategy in `assignment`. Edges to fixed nodes become node costs; the
// fixed nodes' memory becomes one-strategy "background" nodes, one per stretch of time
// in which the set of live free nodes is constant, each using the largest background
// of its stretch (exact: within a stretch only that maximum can bind). The constant
// cost of the fixed part is left out, so only cost differences are meaningful.
class Subproblem {
public:
    Subproblem(const ShardingProblem& problem, const Assignment& assignment, const std::vector<int>& freeNodes);

    [[nodiscard]] const ShardingProblem& problem() const { return sub_; }
    // The current strategies of the free nodes, as an assignment of problem().
    [[nodiscard]] const Assignment& current() const { return current_; }
    // Writes a solution of problem() back into `assignment`.
    void apply(const Assignment& subAssignment, Assignment& assignment) const;

private:
    ShardingProblem sub_;
    std::vector<int> freeNodes_;
    Assignment current_;
};

}  // namespace tapestry
