#pragma once

#include "solver/ShardingProblem.h"

namespace tapestry {

// The plan the solver's searches start from: the cheapest of these that fits the memory
// limit (forbidden costs, at or above kCostCap, counted as such):
// - the cheapest strategy of every node;
// - the smallest usage among each node's strategies of allowed cost (fits whenever
//   anything does);
// - a greedy plan that avoids forbidden cells where it can, made to fit by repairMemory
//   where it does not: strategies without an allowed partner among a neighbour's
//   remaining ones are ruled out (arc consistency), then node after node in
//   breadth-first order (from the node of most edges) each tries its cheapest remaining
//   strategies (costs counting the edges to nodes already chosen), up to four, and takes
//   the first whose consequences, propagated the same way, rule out no node's every
//   strategy and keep the smallest usages left within the limit; where none does, its
//   smallest usage (then the cheapest), and propagation stops short of emptying a node.
// Per-node choices alone meet forbidden edge cells where neighbours' cheapest or
// smallest strategies do not match (public A's smallest-usage plan pays 2,560), which
// the local search then has to clear before any plan counts. The greedy keeps usage per
// time point: give it a problem whose time is compressed (withCompressedTime). It takes
// 0.15-0.5 CPU-seconds on problems of 28-65 k nodes (public A, unet-2d-28k, gns-2d-35k,
// diffusion-2d-65k after reduction, the memory repair included).
[[nodiscard]] Assignment startAssignment(const ShardingProblem& problem);

}  // namespace tapestry
