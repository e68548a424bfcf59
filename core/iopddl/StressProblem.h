#pragma once

#include "solver/ShardingProblem.h"

#include <cstdint>

namespace tapestry {

// A large random problem with the contest's structure, for stress tests and benchmarks
// that can be shared (the contest's held-out problems cannot). Nodes are tensors in
// topological order, each with 1 to 25 strategies (shard factor and layout) whose cost
// and usage shrink with sharding; edges join producers to consumers along chains with
// skip connections (so the graph has cycles), with dense matrices that charge a
// re-layout by tensor size and forbid about a third of the cells (cost 1e18); nodes
// live from their producer's time point to their last consumer's, a few (weights)
// throughout; the usage limit binds. A hidden reference assignment avoids every
// forbidden cost and fits the limit, so a plan of ordinary cost exists.
// Deterministic for a node count and seed.
[[nodiscard]] ShardingProblem generateStressProblem(int nodeCount, std::uint64_t seed);

}  // namespace tapestry
