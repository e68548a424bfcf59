#pragma once

#include "fold/CoarseGraph.h"

namespace tapestry {

class Graph;

// TAP's "convert to a coarser graph": each anchor op (a Linear, Conv, Embedding or
// batched MatMul) starts a coarse node; an activation-path follower joins the newest
// node it reads from when it serves the same module (scopes nested in one another, or
// an anchor-less sibling module such as `act_fn` under the same parent); a
// normalization module (its scope computes ReduceMean or a *Normalization op) becomes
// its own node; anything else starts an elementwise node. Auxiliary ops (shape
// arithmetic, folded constants) join the node of their first consumer.
// Without scopes (hand-made graphs) followers simply join the newest producer node.
class CoarsenPass {
public:
    [[nodiscard]] CoarseGraph apply(const Graph& graph) const;
};

}  // namespace tapestry
