#pragma once

#include "fold/FamilyTable.h"
#include "graph/Ids.h"

#include <cstdint>
#include <vector>

namespace tapestry {

class Graph;

// The block instances a cost model binds once (TAP: bind one block per family, count the
// instances). An instance repeats the one before it in its top-level family when both
// are exact copies of the representative (not folded variants), the ops at each position
// agree in role, arity, shapes and element types, and every tensor crossing the instance's
// border has the same ends by position: made or read at the same place of an instance as
// many instances away, or by the same op outside the family, or a weight. It must also
// repeat the instance before in that same way (so a tensor every layer reads, as a
// causal mask, was already kept by an earlier layer at both), no tensor entering it
// comes from a one-input follower (the walk back to a projection stays inside), and none
// of its tensors is a graph output. Every shape-bound fact of a repeating instance
// (ops' flops and bytes, saved activations, crossing tensors' sizes) is then its
// predecessor's, moved by one instance; what depends on which weight is read (parameter
// counts, ties) is not covered and is counted per node.
// Ops at one position are compared by role, type, arity and their tensors, never by
// their attributes: that rests on the family table. Two exact copies of a representative
// share its block signature (fold/BlockSignature.h: blockSignature, which PrunePass
// groups instances by), which spells out every op's domain and type and its attributes,
// up to floats: a float attribute is written to six decimals (std::to_string: 1e-7 and
// 1e-8 both read 0.000000), a tensor attribute by its type, dims and integer values only
// (float values are left out), a graph attribute as "graph". So instances may share a
// representative while differing in a float attribute; no price reads one. A folded
// variant, which may differ in attributes, is never compared. A family built otherwise,
// or a price that reads a float attribute, would need the attributes compared here.
// The walk rule that decides which tensors may move (a follower of one activation) is
// the cost model's own (fold/ActivationWalk.h).
struct InstanceRepeats {
    // Per op of a repeating instance: the op at its position in the instance before.
    std::vector<OpId> opBefore;
    // Per coarse node likewise.
    std::vector<CoarseNodeId> nodeBefore;
    // The repeating instances' ops, instance after instance (each after its predecessor's).
    std::vector<OpId> repeatedOps;

    // `tensor` of an instance's op or of one before it, moved one instance on: the
    // output at the same place of the op at the same position in the next instance of
    // its family; a tensor made outside the top-level families (or a weight) stays.
    [[nodiscard]] TensorId next(const Graph& graph, const CoarseGraph& coarse, TensorId tensor) const;

    // Where each op of a top-level family instance sits (invalid instance elsewhere).
    struct Place {
        std::int32_t instance = -1;  // index into `instances`
        std::int32_t node = 0;       // position in the instance
        std::int32_t op = 0;         // position in the node's ops (auxiliary ops: -1 - index)
    };
    std::vector<Place> places;  // per op
    // The nodes of the top-level families' instances, family after family (held by value:
    // a model keeps its repeats beside its families, FoldedModel::foldFacts, and may be copied).
    std::vector<std::vector<CoarseNodeId>> instances;
    std::vector<std::size_t> familyOf;  // per instance
};

[[nodiscard]] InstanceRepeats findInstanceRepeats(const Graph& graph, const CoarseGraph& coarse,
                                                  const FamilyTable& families);

}  // namespace tapestry
