#pragma once

#include "graphview/GraphViewKind.h"
#include "layout/LayoutGraph.h"
#include "layout/LayoutResult.h"

#include <QCoreApplication>

#include <limits>
#include <set>
#include <vector>

class QFont;

namespace tapestry {

struct FoldedModel;
struct LoadedModel;

// What one box of a graph view stands for, and what double-clicking it does.
struct ViewNodeRef {
    enum class Kind { Scope, Op, Coarse, Family };
    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

    Kind kind = Kind::Coarse;
    std::size_t index = 0;           // ScopeNodeId, OpId, CoarseNodeId or FamilyId index
    std::size_t multiplicity = 0;    // Kind::Family: instances, drawn as a "×N" badge
    std::size_t collapses = kNone;   // the expanded family or scope this box sits in
};

// One graph view ready to draw: the graph, what its boxes stand for, and (once the
// background job has run) its layout.
struct GraphViewContent {
    Q_DECLARE_TR_FUNCTIONS(GraphViewContent)

public:
    GraphViewKind kind = GraphViewKind::Folded;
    LayoutGraph graph;
    std::vector<ViewNodeRef> refs;  // parallel to graph.nodes
    LayoutResult layout;

    // The graph of `kind` with `expanded` families (folded view) or scopes (scope view)
    // opened, labels translated and every box sized to its label in `font`. Cheap
    // (milliseconds for a thousand boxes): runs on the GUI thread; only the layout is
    // background work.
    [[nodiscard]] static GraphViewContent build(GraphViewKind kind, const LoadedModel& model, const FoldedModel& folded,
                                                const std::set<std::size_t>& expanded, const QFont& font);
};

}  // namespace tapestry
