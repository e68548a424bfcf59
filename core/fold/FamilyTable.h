#pragma once

#include "base/StrongId.h"
#include "fold/CoarseGraph.h"

#include <string>
#include <vector>

namespace tapestry {

using FamilyId = StrongId<struct FamilyIdTag>;

// One occurrence of a repeated block: a module scope and the coarse nodes inside it.
struct BlockInstance {
    std::string scope;  // "model/layers.7"
    std::vector<CoarseNodeId> nodes;  // ascending
};

// An instance that differs from the family's representative: listed with what differs.
// In Family::variants it looks like the family (same index pattern, same anchors with
// the same weight shapes) but is not folded; in Family::foldedVariants it differs only
// in plan-neutral ops (see structuralSignature) and is one of the instances.
struct FamilyVariant {
    BlockInstance instance;
    std::string difference;  // "+1 Cast, -1 Mul"
};

// A unique block and everywhere it repeats (TAP's "unique subgraph").
// Invariants: instances.size() >= the pruning's minimum duplicate count; all
// instances have the same structural signature (the same coarse nodes in the same
// order, wired alike, with the same anchors and plan-relevant ops), and those whose
// exact signature differs from the representative's are listed in foldedVariants;
// instances[0] is the representative; a nested family's instances all lie inside its
// parent's representative.
struct Family {
    FamilyId id;
    FamilyId parent;   // invalid for a top-level family
    std::string name;  // "model/layers.#"
    std::vector<BlockInstance> instances;
    std::vector<CoarseNodeId> anchors;  // anchor nodes of the representative
    std::vector<FamilyVariant> variants;        // near misses, not folded
    std::vector<FamilyVariant> foldedVariants;  // folded, though not identical

    [[nodiscard]] std::size_t multiplicity() const { return instances.size(); }
    [[nodiscard]] const BlockInstance& representative() const { return instances.front(); }
};

struct FamilyTable {
    std::vector<Family> families;
    // Coarse nodes outside every top-level family instance (embedding, head, unique blocks).
    std::vector<CoarseNodeId> unfoldedNodes;
    // Anchors the searcher must decide: each family's representative once (nested
    // families folded too) plus the anchors outside families.
    std::size_t decisionAnchors = 0;

    [[nodiscard]] const Family& family(FamilyId id) const { return families.at(id.index()); }
};

}  // namespace tapestry
