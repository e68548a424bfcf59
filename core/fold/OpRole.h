#pragma once

#include "graph/Ids.h"

#include <cstdint>
#include <vector>

namespace tapestry {

class Graph;

// What an op is to the planner.
enum class OpRole : std::uint8_t {
    Auxiliary,      // computes only from constants and shape metadata (Shape, Constant, folded weights)
    Linear,         // MatMul/Gemm with a constant weight
    Conv,           // Conv/ConvTranspose with a constant weight
    Embedding,      // Gather from a constant table
    BatchedMatMul,  // MatMul of two activations (attention scores, attention x values)
    Follower,       // everything else on the activation path: elementwise, norms, reshapes
};

[[nodiscard]] const char* opRoleName(OpRole role);
// The roles the searcher assigns a strategy to; the others inherit layouts.
[[nodiscard]] bool isAnchorRole(OpRole role);

// Roles of all ops of `graph`, indexed by OpId. A tensor is auxiliary when it is an
// initializer or only derives from initializers and shape metadata; an op is auxiliary
// when all its inputs are (or it reads only a shape: Shape, Size).
[[nodiscard]] std::vector<OpRole> classifyOps(const Graph& graph);

}  // namespace tapestry
