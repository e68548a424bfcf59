#include "LoadedModel.h"

#include "onnx/OnnxImporter.h"

namespace tapestry {

std::shared_ptr<const LoadedModel> LoadedModel::load(const QString& path)
{
    auto model = std::make_shared<LoadedModel>();
    model->path = path;
    model->graph = importOnnxModel(std::filesystem::path(path.toStdString()));
    model->summary = summarizeModel(model->graph);
    model->scopes = ScopeTree::build(model->graph);
    return model;
}

}  // namespace tapestry
