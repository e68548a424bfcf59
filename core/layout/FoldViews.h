#pragma once

#include "fold/FoldedGraph.h"
#include "layout/LayoutGraph.h"

namespace tapestry {

class Graph;

// Fill colour of a coarse node kind in every view (and the legend).
[[nodiscard]] const char* kindColor(CoarseNodeKind kind);
inline constexpr const char* kFamilyColor = "#ffd8a8";

// The coarse graph, one box per coarse node (label: module and kind, weight shape).
[[nodiscard]] LayoutGraph coarseLayoutGraph(const Graph& graph, const CoarseGraph& coarse);

// The folded graph: collapsed families as emphasized "name ×N" boxes; expanded
// families as a cluster holding their representative's nodes.
[[nodiscard]] LayoutGraph foldedLayoutGraph(const Graph& graph, const CoarseGraph& coarse,
                                            const FamilyTable& families, const FoldedGraph& folded);

}  // namespace tapestry
