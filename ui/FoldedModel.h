#pragma once

#include "fold/CoarseGraph.h"
#include "fold/FamilyTable.h"

#include <memory>

namespace tapestry {

struct LoadedModel;

// A loaded model with its coarse graph and block families: what the graph views draw.
// Built once off the GUI thread, then shared read-only.
struct FoldedModel {
    std::shared_ptr<const LoadedModel> model;
    CoarseGraph coarse;
    FamilyTable families;

    // Coarsens and prunes `model` (≈1 s for a 96-layer GPT-3); blocking.
    [[nodiscard]] static std::shared_ptr<const FoldedModel> fold(std::shared_ptr<const LoadedModel> model);
};

}  // namespace tapestry
