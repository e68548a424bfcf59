#include "graphview/GraphViewContent.h"

#include "fold/FoldedModel.h"
#include "model/LoadedModel.h"
#include "fold/FoldedGraph.h"
#include "layout/FoldViews.h"
#include "layout/ScopeLayoutGraph.h"

#include <QFontMetricsF>

#include <algorithm>
#include <limits>

namespace tapestry {

namespace {

constexpr double kPaddingX = 18;
constexpr double kPaddingY = 10;
constexpr double kMinWidth = 64;
constexpr double kMinHeight = 30;
// A node feeding more boxes than this (an attention mask or position ids read by every
// layer) keeps only its edge to the first consumer, plus a note: long edges across the
// whole graph make `dot` take a minute instead of a second and read as noise.
constexpr std::size_t kMaxDrawnFanOut = 8;

void summarizeBroadcasts(LayoutGraph& graph)
{
    std::vector<std::size_t> fanOut(graph.nodes.size());
    std::vector<std::size_t> firstConsumer(graph.nodes.size(), std::numeric_limits<std::size_t>::max());
    for (const LayoutEdge& edge : graph.edges) {
        ++fanOut[edge.from];
        firstConsumer[edge.from] = std::min(firstConsumer[edge.from], edge.to);
    }
    std::erase_if(graph.edges, [&](const LayoutEdge& edge) {
        return fanOut[edge.from] > kMaxDrawnFanOut && edge.to != firstConsumer[edge.from];
    });
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (fanOut[i] > kMaxDrawnFanOut)
            graph.nodes[i].label += "\n" + GraphViewContent::tr("→ %1 more consumers").arg(fanOut[i] - 1).toStdString();
    }
}

template <class Id>
std::set<Id> idsOf(const std::set<std::size_t>& indices)
{
    std::set<Id> ids;
    for (const std::size_t index : indices)
        ids.insert(Id{index});
    return ids;
}

GraphViewContent scopeContent(const LoadedModel& model, const std::set<std::size_t>& expanded)
{
    const ScopeLayoutGraph view = scopeLayoutGraph(*model.graph, model.scopes, idsOf<ScopeNodeId>(expanded));
    std::vector<std::size_t> scopeOfOp(model.graph->opCount(), ViewNodeRef::kNone);
    for (const ScopeNode& scope : model.scopes.nodes()) {
        for (const OpId op : scope.ops)
            scopeOfOp[op.index()] = scope.id.index();
    }
    GraphViewContent content;
    content.graph = view.graph;
    for (std::size_t i = 0; i < view.items.size(); ++i) {
        const ScopeViewItem& item = view.items[i];
        LayoutNode& node = content.graph.nodes[i];
        ViewNodeRef ref;
        if (item.scope.isValid()) {
            const ScopeNode& scope = model.scopes.node(item.scope);
            ref = {ViewNodeRef::Kind::Scope, item.scope.index(), 0, scope.parent.index()};
            const QString name = QString::fromStdString(scope.name);
            node.label = (scope.totalOpCount == 1 ? GraphViewContent::tr("%1\n1 op").arg(name)
                                                  : GraphViewContent::tr("%1\n%L2 ops").arg(name).arg(scope.totalOpCount))
                             .toStdString();
        } else {
            ref = {ViewNodeRef::Kind::Op, item.op.index(), 0, scopeOfOp[item.op.index()]};
        }
        // The root is always open: nothing to collapse there.
        if (ref.collapses == model.scopes.root().index())
            ref.collapses = ViewNodeRef::kNone;
        content.refs.push_back(ref);
    }
    return content;
}

GraphViewContent foldedContent(const FoldedModel& folded, const std::set<std::size_t>& expanded)
{
    const FoldedGraph view = buildFoldedGraph(folded.coarse, folded.families, idsOf<FamilyId>(expanded));
    GraphViewContent content;
    content.graph = foldedLayoutGraph(folded.graph(), folded.coarse, folded.families, view);
    for (std::size_t i = 0; i < view.nodes.size(); ++i) {
        const FoldedNode& node = view.nodes[i];
        const std::size_t collapses = node.enclosing.isValid() ? node.enclosing.index() : ViewNodeRef::kNone;
        if (node.kind == FoldedNode::Kind::Family) {
            const Family& family = folded.families.family(node.family);
            std::size_t ops = 0;
            for (const CoarseNodeId id : family.representative().nodes)
                ops += folded.coarse.node(id).ops.size();
            // The multiplicity goes to the badge; the label says what one instance holds.
            content.graph.nodes[i].label =
                GraphViewContent::tr("%1\n%2 anchors, %3 ops each")
                    .arg(QString::fromStdString(family.name))
                    .arg(family.anchors.size())
                    .arg(ops)
                    .toStdString();
            content.refs.push_back({ViewNodeRef::Kind::Family, node.family.index(), family.multiplicity(), collapses});
        } else {
            content.refs.push_back({ViewNodeRef::Kind::Coarse, node.coarse.index(), 0, collapses});
        }
    }
    return content;
}

GraphViewContent coarseContent(const FoldedModel& folded)
{
    GraphViewContent content;
    content.graph = coarseLayoutGraph(folded.graph(), folded.coarse);
    for (std::size_t i = 0; i < folded.coarse.nodes.size(); ++i)
        content.refs.push_back({ViewNodeRef::Kind::Coarse, i, 0, ViewNodeRef::kNone});
    return content;
}

}  // namespace

GraphViewContent GraphViewContent::build(GraphViewKind kind, const LoadedModel& model, const FoldedModel& folded,
                                         const std::set<std::size_t>& expanded, const QFont& font)
{
    GraphViewContent content;
    switch (kind) {
    case GraphViewKind::Scope: content = scopeContent(model, expanded); break;
    case GraphViewKind::Coarse: content = coarseContent(folded); break;
    case GraphViewKind::Folded: content = foldedContent(folded, expanded); break;
    }
    content.kind = kind;
    summarizeBroadcasts(content.graph);
    // Graphviz would size boxes with its own font metrics; fixed sizes measured here make
    // the drawn text fit its box exactly.
    const QFontMetricsF metrics(font);
    for (LayoutNode& node : content.graph.nodes) {
        const QSizeF text = metrics.size(0, QString::fromStdString(node.label));
        node.widthPoints = std::max(kMinWidth, text.width() + kPaddingX);
        node.heightPoints = std::max(kMinHeight, text.height() + kPaddingY);
    }
    return content;
}

}  // namespace tapestry
