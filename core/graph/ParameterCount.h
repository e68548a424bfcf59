#pragma once

#include <cstdint>

namespace tapestry {

class Graph;

struct ParameterCount {
    std::uint64_t parameters = 0;  // elements
    std::uint64_t bytes = 0;       // at each weight's stored dtype
    std::uint64_t weights = 0;     // distinct weight tensors counted
};

// Trainable parameters, as a model card counts them: floating-point initializers of
// rank >= 1, without BatchNormalization's running statistics, once per distinct weight.
// Exporters merge initializers with equal contents and hand them to each module through
// Identity ops ("h.0.mlp.c_fc.weight" -> "h.23.mlp.c_fc.weight", or one all-ones tensor
// for every norm): each such copy is a weight of its own. The exception is weight
// tying: an Identity copy of an embedding table (a Gather's data) is the tied output
// projection ("lm_head.weight"), the same parameter, counted once. A tensor an exporter
// computed from parameters and stored in their place (a transposed head; Swin's relative
// position bias gathered from its table) counts as the tensor the file holds: nothing
// in the file says what it was computed from.
[[nodiscard]] ParameterCount countParameters(const Graph& graph);

}  // namespace tapestry
