#pragma once

#include "solver/ShardingProblem.h"

#include <vector>

namespace tapestry {

// An edge whose allowed cells pair each strategy of either end with at most one of the
// other's (a layout that must match): its ends choose together.
[[nodiscard]] bool isForced(const ShardingProblem& problem, const ProblemEdge& edge);

// Nodes joined by forced edges, each group one choice: the strategy of its root. For
// each node, the root strategy each of its strategies goes with (-1: none, the node
// cannot take it) and back. A forced edge that closes a cycle stays an edge inside the
// group, priced (or ruled out) per root strategy like the others.
struct ForcedGroups {
    std::vector<int> root;
    std::vector<std::vector<int>> toRoot;
    std::vector<std::vector<int>> fromRoot;
};

[[nodiscard]] ForcedGroups forcedGroups(const ShardingProblem& problem);

}  // namespace tapestry
