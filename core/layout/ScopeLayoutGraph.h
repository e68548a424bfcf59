#pragma once

#include "graph/Ids.h"
#include "graph/ScopeTree.h"
#include "layout/LayoutGraph.h"

#include <set>
#include <vector>

namespace tapestry {

class Graph;

// What one box of the scope view stands for: a collapsed scope (with everything below
// it) or a single op of an expanded scope. Exactly one of the two ids is valid.
struct ScopeViewItem {
    ScopeNodeId scope;
    OpId op;
};

// The original graph grouped by module scope, with what each box stands for.
// `items` is parallel to `graph.nodes`.
struct ScopeLayoutGraph {
    LayoutGraph graph;
    std::vector<ScopeViewItem> items;
};

// The op graph drawn by scope. The root is always open; every other scope is one box
// "name (N ops)" unless it is in `expanded` and all its ancestors are open, in which
// case it becomes a cluster of its child scopes (collapsed unless expanded themselves)
// and its direct ops. Guarantees: every op is represented by exactly one box; an edge
// joins the boxes of a tensor's producer and consumer, once per pair, never a box to
// itself; boxes appear in scope-tree order, ops in graph order.
[[nodiscard]] ScopeLayoutGraph scopeLayoutGraph(const Graph& graph, const ScopeTree& scopes,
                                                const std::set<ScopeNodeId>& expanded);

}  // namespace tapestry
