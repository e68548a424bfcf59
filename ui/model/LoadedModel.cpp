#include "model/LoadedModel.h"

#include "onnx/OnnxImporter.h"

#include <QFile>

namespace tapestry {

std::shared_ptr<const LoadedModel> LoadedModel::load(const QString& path)
{
    auto model = std::make_shared<LoadedModel>();
    model->path = path;
    // The file system's own encoding of the name, as QFile would open it.
    model->graph = std::make_shared<const Graph>(
        importOnnxModel(std::filesystem::path(QFile::encodeName(path).toStdString())));
    model->summary = summarizeModel(*model->graph);
    model->scopes = ScopeTree::build(*model->graph);
    return model;
}

}  // namespace tapestry
