#pragma once

#include "graph/Ids.h"

#include <vector>

namespace tapestry {

class Graph;
struct CoarseGraph;

// Whether `id` is a trained parameter: a floating-point initializer with at least one
// dimension.
[[nodiscard]] bool isParameter(const Graph& graph, TensorId id);

// Per tensor, whether it carries a gradient in backward: it lies downstream of a
// parameter, read directly or through auxiliary ops that read one.
[[nodiscard]] std::vector<bool> gradientCarriers(const Graph& graph, const CoarseGraph& coarse);

}  // namespace tapestry
