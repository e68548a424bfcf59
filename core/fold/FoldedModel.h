#pragma once

#include "fold/CoarseGraph.h"
#include "fold/FamilyTable.h"
#include "graph/Graph.h"

#include <memory>
#include <string>

namespace tapestry {

struct FoldFacts;

// A model's graph with its coarse graph and block families: what pricing, the search,
// the exporters and the graph views start from. The graph is shared (the GUI keeps it
// with the loaded model too); the coarse graph and families refer to it by id.
struct FoldedModel {
    std::shared_ptr<const Graph> source;
    CoarseGraph coarse;
    FamilyTable families;
    std::string fingerprint;  // modelFingerprint(graph()), hashed once by foldModel
    // What every cost model of the model binds from that depends on the graph and this
    // fold alone (fold/FoldFacts.h: the block instances that repeat the one before, each
    // tensor's gradient flow), found once by foldModel instead of by every cost model
    // walking every layer again. Null for a model put together otherwise: a cost model
    // finds them itself then.
    std::shared_ptr<const FoldFacts> foldFacts;

    [[nodiscard]] const Graph& graph() const { return *source; }
};

// The fold pipeline: CoarsenPass, then PrunePass (≈1 s for a 96-layer GPT-3); blocking.
[[nodiscard]] FoldedModel foldModel(std::shared_ptr<const Graph> graph);
[[nodiscard]] FoldedModel foldModel(Graph graph);

}  // namespace tapestry
