#pragma once

#include "fold/FamilyTable.h"

namespace tapestry {

class Graph;

// TAP's "discover unique subgraphs". Walks the module scope tree from the top; at each
// scope, groups the child scopes whose names differ only by indices (`layers.0`,
// `layers.1`, `h.3`, `layer2.1`), buckets the candidates by their canonical block
// signature, and publishes each bucket of at least `minDuplicates` blocks that hold an
// anchor as a family. Blocks
// that match a family's anchors but not its full signature are recorded as variants.
// Scopes not folded are searched deeper; a family's representative is searched for
// nested families (experts inside a MoE layer).
class PrunePass {
public:
    explicit PrunePass(std::size_t minDuplicates = 2) : minDuplicates_(minDuplicates) {}

    [[nodiscard]] FamilyTable apply(const Graph& graph, const CoarseGraph& coarse) const;

private:
    std::size_t minDuplicates_;
};

// "layers.12" -> "layers.#"; names without digits are returned unchanged.
[[nodiscard]] std::string indexPattern(const std::string& name);

}  // namespace tapestry
