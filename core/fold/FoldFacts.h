#pragma once

#include "fold/InstanceRepeats.h"

#include <string>
#include <vector>

namespace tapestry {

class Graph;

// What a cost model binds from that depends on the graph and its fold alone: walks over
// every op of every layer, which a model's fold makes once (FoldedModel::foldFacts) for
// all its cost models (a search binds one per batch and sequence and per stack's
// attention kernel and saved activations) instead of each making them again. They hold
// for the coarse graph and families foldModel makes of that graph (the fingerprint is the
// graph's: a model put together with another coarsening of the same graph would pass it).
struct FoldFacts {
    std::string fingerprint;             // of the model they were found for (FoldedModel::fingerprint)
    InstanceRepeats repeats;             // fold/InstanceRepeats.h
    std::vector<bool> gradientCarriers;  // per tensor (fold/GradientCarriers.h)
};

[[nodiscard]] FoldFacts findFoldFacts(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                      std::string fingerprint);

}  // namespace tapestry
