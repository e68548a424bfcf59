#pragma once

#include "base/StrongId.h"
#include "graph/Ids.h"

#include <string>
#include <vector>

namespace tapestry {

class Graph;

using ScopeNodeId = StrongId<struct ScopeNodeIdTag>;

// One module scope: "layers.0" under "model".
struct ScopeNode {
    ScopeNodeId id;
    ScopeNodeId parent;  // invalid for the root
    std::string name;    // last component; "" for the root
    std::string path;    // "model/layers.0"; "" for the root
    std::vector<ScopeNodeId> children;  // in order of first appearance in the graph
    std::vector<OpId> ops;              // ops whose scope is exactly this node
    std::uint32_t totalOpCount = 0;     // ops in this node and everything below it
};

// The module hierarchy of a graph, built from its ops' scope paths.
// Invariants: node(root()) has the empty path; nodes()[i].id.index() == i; a node's
// totalOpCount is its own ops plus its children's totals; ops without a scope sit at
// the root.
class ScopeTree {
public:
    [[nodiscard]] static ScopeTree build(const Graph& graph);

    [[nodiscard]] ScopeNodeId root() const { return ScopeNodeId{std::size_t{0}}; }
    [[nodiscard]] const ScopeNode& node(ScopeNodeId id) const { return nodes_.at(id.index()); }
    [[nodiscard]] const std::vector<ScopeNode>& nodes() const { return nodes_; }
    // Position of `id` among its parent's children (0 for the root).
    [[nodiscard]] std::size_t rowInParent(ScopeNodeId id) const { return rows_.at(id.index()); }

private:
    std::vector<ScopeNode> nodes_;
    std::vector<std::size_t> rows_;
};

}  // namespace tapestry
