#pragma once

#include "solver/ShardingProblem.h"

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <vector>

namespace tapestry {

// Large-neighbourhood search with exact steps: repeatedly frees a connected region of
// nodes (a random breadth-first ball), solves that Subproblem with CBC (solveWithIlp)
// from the current strategies, and keeps the result when it is cheaper. The ball grows
// while CBC proves its regions optimal quickly and shrinks when it runs out of time.
// `assignment` must be feasible and stays feasible. Returns true if it improved.
bool improveWithIlpRegions(const ShardingProblem& problem, Assignment& assignment, std::uint64_t seed,
                           std::chrono::steady_clock::time_point deadline, std::stop_token stop = {});

// The nodes with a choice whose strategy in `assignment` does not hold all the weight a
// relaxed solution (`weights`, per node and strategy, as IlpHooks::relaxed gives them)
// puts on that node: where the relaxation and the plan disagree.
[[nodiscard]] std::vector<int> disagreeingNodes(const ShardingProblem& problem, const Assignment& assignment,
                                                const std::vector<std::vector<double>>& weights);

// A relaxation-induced neighbourhood (RINS): frees the disagreeing nodes, keeps every
// other node's strategy, solves that Subproblem with CBC until `deadline` and keeps the
// result when it is cheaper. Where a root relaxation is nearly integral but the plans
// in hand sit in another basin, this is the step that joins them: a generated
// 1,200-node diffusion problem, whose Lagrangian plan sat 2.6 % above CBC's root bound
// for the rest of the limit, came within 0.8 % of it in one such solve (210 nodes
// freed). `assignment` must be feasible and stays feasible. Returns true if it improved.
bool improveWithRelaxation(const ShardingProblem& problem, Assignment& assignment,
                           const std::vector<std::vector<double>>& weights,
                           std::chrono::steady_clock::time_point deadline, std::stop_token stop = {});

}  // namespace tapestry
