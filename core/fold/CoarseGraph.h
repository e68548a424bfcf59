#pragma once

#include "base/StrongId.h"
#include "fold/OpRole.h"
#include "graph/Ids.h"
#include "graph/ScopePath.h"

#include <string>
#include <vector>

namespace tapestry {

using CoarseNodeId = StrongId<struct CoarseNodeIdTag>;

enum class CoarseNodeKind : std::uint8_t {
    Linear,
    Conv,
    Embedding,
    BatchedMatMul,
    Normalization,  // no anchor; normalizes (LayerNorm, RMSNorm, BatchNorm)
    Elementwise,    // no anchor; residual adds, activations, reshapes
};

[[nodiscard]] const char* coarseNodeKindName(CoarseNodeKind kind);
[[nodiscard]] bool isAnchorKind(CoarseNodeKind kind);

// One layer-like unit: an anchor op (or none) plus the followers that only adjust its
// output, and the auxiliary ops that feed them.
struct CoarseNode {
    CoarseNodeId id;
    CoarseNodeKind kind = CoarseNodeKind::Elementwise;
    OpId anchor;  // invalid for Normalization and Elementwise nodes
    ScopePath scope;
    std::string name;          // "model/layers.0/self_attn/q_proj/MatMul"
    std::vector<OpId> ops;     // activation-path ops in topological order
    std::vector<OpId> auxiliaryOps;
};

struct CoarseEdge {
    CoarseNodeId from;
    CoarseNodeId to;
    TensorId tensor;
};

// The graph coarsened into layer-like nodes.
// Invariants: every op of the source graph belongs to exactly one node (nodeOf); node
// ids follow a topological order of the coarse graph, so every edge goes from a lower
// to a higher id; each (from, to, tensor) edge appears once.
struct CoarseGraph {
    std::vector<CoarseNode> nodes;
    std::vector<CoarseEdge> edges;
    std::vector<CoarseNodeId> nodeOf;  // indexed by OpId
    std::vector<OpRole> roles;         // indexed by OpId

    [[nodiscard]] const CoarseNode& node(CoarseNodeId id) const { return nodes.at(id.index()); }
    [[nodiscard]] std::size_t anchorCount() const;
};

}  // namespace tapestry
