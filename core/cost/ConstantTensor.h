#pragma once

#include "graph/Ids.h"

namespace tapestry {

class Graph;
struct CoarseGraph;

// Whether `id` is a weight or is computed from weights and constants alone (made by an
// auxiliary op): it carries no activation, so walks over activations pass it by. The cost
// model and InstanceRepeats must agree on it, hence one definition.
[[nodiscard]] bool isDerivedConstant(const Graph& graph, const CoarseGraph& coarse, TensorId id);

}  // namespace tapestry
