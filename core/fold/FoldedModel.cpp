#include "fold/FoldedModel.h"

#include "fold/CoarsenPass.h"
#include "fold/FoldFacts.h"
#include "fold/PrunePass.h"
#include "graph/ModelFingerprint.h"

namespace tapestry {

FoldedModel foldModel(std::shared_ptr<const Graph> graph)
{
    FoldedModel folded;
    folded.coarse = CoarsenPass{}.apply(*graph);
    folded.families = PrunePass{}.apply(*graph, folded.coarse);
    folded.fingerprint = modelFingerprint(*graph);
    folded.foldFacts =
        std::make_shared<const FoldFacts>(findFoldFacts(*graph, folded.coarse, folded.families, folded.fingerprint));
    folded.source = std::move(graph);
    return folded;
}

FoldedModel foldModel(Graph graph)
{
    return foldModel(std::make_shared<const Graph>(std::move(graph)));
}

}  // namespace tapestry
