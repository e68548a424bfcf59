#pragma once

#include "graph/Graph.h"
#include "graph/ModelSummary.h"
#include "graph/ScopeTree.h"

#include <QString>

#include <memory>

namespace tapestry {

// Everything the window shows about one imported model. Built once off the GUI thread,
// then shared read-only by the views.
struct LoadedModel {
    QString path;
    std::shared_ptr<const Graph> graph;  // shared with the model's fold
    ModelSummary summary;
    ScopeTree scopes;

    // Imports `path` and derives the summary and scope tree. Throws tapestry::Error.
    [[nodiscard]] static std::shared_ptr<const LoadedModel> load(const QString& path);
};

}  // namespace tapestry
