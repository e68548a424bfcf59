#include "FoldedModel.h"

#include "LoadedModel.h"
#include "fold/CoarsenPass.h"
#include "fold/PrunePass.h"

namespace tapestry {

std::shared_ptr<const FoldedModel> FoldedModel::fold(std::shared_ptr<const LoadedModel> model)
{
    auto folded = std::make_shared<FoldedModel>();
    folded->coarse = CoarsenPass().apply(model->graph);
    folded->families = PrunePass().apply(model->graph, folded->coarse);
    folded->model = std::move(model);
    return folded;
}

}  // namespace tapestry
