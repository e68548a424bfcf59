#pragma once

#include "solver/ShardingProblem.h"

namespace tapestry {

// Makes an assignment fit the memory limit greedily: while some time point is
// overloaded, switch the node alive there whose cheaper-in-memory strategy costs the
// least per unit of usage freed (edge costs with its neighbours as they are; moves that
// add a forbidden cost, at or above kCostCap, only when nothing else helps). Returns
// the repaired assignment; it is feasible whenever the problem is (each step frees
// usage at the overloaded point, down to the smallest usages).
[[nodiscard]] Assignment repairMemory(const ShardingProblem& problem, Assignment assignment);

}  // namespace tapestry
