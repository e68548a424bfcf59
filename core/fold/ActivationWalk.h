#pragma once

#include "graph/Ids.h"

namespace tapestry {

class Graph;
struct CoarseGraph;

// The rules by which the cost model walks over activations, and InstanceRepeats decides
// which layers it may copy facts between: the two must agree (a copied layer would keep
// facts that a changed walk no longer gives), hence one definition of each.

// Whether `id` is a weight or is computed from weights and constants alone (made by an
// auxiliary op): it carries no activation, so walks over activations pass it by.
[[nodiscard]] bool isDerivedConstant(const Graph& graph, const CoarseGraph& coarse, TensorId id);

// The one activation input of `op` when `op` is a follower that reads exactly one (a
// reshape, a transpose, rotary embedding, grouped-query attention's repeat, a bias add):
// a walk back from an activation to the projection that made it goes through such an op
// to that input. Invalid for any other op (an anchor, an auxiliary op, a follower of two
// activations or of none).
[[nodiscard]] TensorId activationWalkedBackThrough(const Graph& graph, const CoarseGraph& coarse, OpId op);

}  // namespace tapestry
