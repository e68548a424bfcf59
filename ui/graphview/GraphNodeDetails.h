#pragma once

#include <QCoreApplication>
#include <QString>

namespace tapestry {

struct FoldedModel;
struct LoadedModel;
struct ViewNodeRef;

// The hover card and side-panel text for one box of a graph view (rich text): a
// coarse node's ops with their types and output shapes and its anchor's input shapes;
// a family's multiplicity, instances and anchors; a scope's size; an op's tensors.
class GraphNodeDetails {
    Q_DECLARE_TR_FUNCTIONS(GraphNodeDetails)

public:
    [[nodiscard]] static QString html(const LoadedModel& model, const FoldedModel& folded, const ViewNodeRef& ref);
};

}  // namespace tapestry
