#pragma once

#include "fold/FamilyTable.h"

#include <set>
#include <string>
#include <vector>

namespace tapestry {

// One box of the folded view: a coarse node, or a whole family drawn once.
struct FoldedNode {
    enum class Kind : std::uint8_t { Coarse, Family };
    Kind kind = Kind::Coarse;
    CoarseNodeId coarse;   // Kind::Coarse: the node shown (a representative's node inside an expanded family)
    FamilyId family;       // Kind::Family: the collapsed family
    FamilyId enclosing;    // Kind::Coarse inside an expanded family: that family (innermost)
};

struct FoldedEdge {
    std::size_t from = 0;  // indices into FoldedGraph::nodes
    std::size_t to = 0;
};

// The coarse graph with each family folded to one node (collapsed) or to its
// representative block (expanded). Edges between instances of one family are implied
// by its multiplicity and not drawn; edges into or out of any instance attach to the
// family node (collapsed) or to the corresponding node of the representative
// (expanded). Nested families fold inside an expanded parent the same way.
// Invariants: no self edges, no duplicate edges; nodes appear in coarse-graph order.
struct FoldedGraph {
    std::vector<FoldedNode> nodes;
    std::vector<FoldedEdge> edges;
};

[[nodiscard]] FoldedGraph buildFoldedGraph(const CoarseGraph& coarse, const FamilyTable& families,
                                           const std::set<FamilyId>& expanded = {});

}  // namespace tapestry
