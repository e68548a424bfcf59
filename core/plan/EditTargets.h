#pragma once

#include "fold/CoarseGraph.h"

#include <string>
#include <vector>

namespace tapestry {

struct FamilyTable;

// What one hand edit changes: a family position (the same node in every instance of a
// repeated block, as a search pin names it: "model/layers.#/mlp/up_proj/MatMul") or a
// coarse node outside every block.
struct EditTarget {
    std::string name;  // the pin target
    CoarseNodeKind kind = CoarseNodeKind::Elementwise;
    std::vector<CoarseNodeId> nodes;  // every node it sets, ascending by instance
};

// The family positions of every top-level family in the representative's node order,
// then the nodes outside families in node order.
[[nodiscard]] std::vector<EditTarget> editTargets(const CoarseGraph& coarse, const FamilyTable& families);

}  // namespace tapestry
