#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// A Mixtral-style mixture-of-experts decoder: Llama attention, then per layer
// model/layers.N/block_sparse_moe/{gate, experts.E/{w1, w2, w3}}. The router is a
// MatMul, Softmax, TopK and renormalisation; routing weights are scattered back to
// one weight per expert (OneHot, ReduceSum) and every expert's SwiGLU output is
// scaled by its weight and summed, the dense form of the sparse dispatch.
// Expects a valid spec.
[[nodiscard]] Graph buildMoe(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
