#pragma once

#include "fold/CoarseGraph.h"

#include <string>
#include <vector>

namespace tapestry {

class Graph;
class ShapeBinder;

// Where a coarse node sits in a mixture-of-experts layer. A router is a TopK over
// [tokens..., experts] choosing k (outside auxiliary ops); its experts are the scopes right
// below the router's whose names end in ".N" ("model/layers.0/block_sparse_moe/experts.3").
struct ExpertMembership {
    int experts = 0;          // the layer's expert count; 0: the node is in no expert
    int topK = 0;             // experts each token is routed to
    std::string expertScope;  // the expert's scope with a trailing '/', "model/.../experts.3/"
};

// The membership of every coarse node (indexed by CoarseNodeId); the expert and top-k
// counts as `binder` binds the router's shapes.
[[nodiscard]] std::vector<ExpertMembership> expertMembership(const Graph& graph, const CoarseGraph& coarse,
                                                             const ShapeBinder& binder);

}  // namespace tapestry
