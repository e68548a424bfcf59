#include "fold/FoldFacts.h"

#include "fold/GradientCarriers.h"

#include <utility>

namespace tapestry {

FoldFacts findFoldFacts(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                        std::string fingerprint)
{
    return {std::move(fingerprint), findInstanceRepeats(graph, coarse, families), gradientCarriers(graph, coarse)};
}

}  // namespace tapestry
