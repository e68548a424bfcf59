#include "graphview/GraphNodeDetails.h"
#include "plans/StrategyText.h"

#include "fold/FoldedModel.h"
#include "graphview/GraphViewContent.h"
#include "model/LoadedModel.h"

#include <algorithm>
#include <map>

namespace tapestry {

namespace {

// Long lists are cut: a card must fit on the screen.
constexpr std::size_t kMaxRows = 24;

QString text(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString shapeOf(const Graph& graph, TensorId id)
{
    return id.isValid() ? text(graph.tensor(id).shape.toString()) : QStringLiteral("—");
}

QString outputShapes(const Graph& graph, const Op& op)
{
    QStringList shapes;
    for (const TensorId output : op.outputs)
        shapes << shapeOf(graph, output);
    return shapes.join(QStringLiteral(", "));
}

// A line of running text rather than a table row: a narrow panel then wraps at spaces,
// where a table squeezes its columns and breaks words ("Kin d").
QString row(const QString& key, const QString& value)
{
    return u"<br><b>" + key + u":</b> " + value;
}

// An op the importer could not size (ModelInfo::unsizedOps): the planner does not price it.
bool isUnsized(const Graph& graph, const Op& op)
{
    const std::vector<std::string>& unsized = graph.info().unsizedOps;
    return std::find(unsized.begin(), unsized.end(), op.name) != unsized.end();
}

QString notPricedMark()
{
    return u" <i>(" + GraphNodeDetails::tr("not priced") + u")</i>";
}

QString opRows(const Graph& graph, const std::vector<OpId>& ops)
{
    QString rows;
    for (std::size_t i = 0; i < ops.size() && i < kMaxRows; ++i) {
        const Op& op = graph.op(ops[i]);
        rows += u"<br>" + text(op.type) + u" → " + outputShapes(graph, op) +
                (isUnsized(graph, op) ? notPricedMark() : QString());
    }
    return rows;
}

}  // namespace

QString GraphNodeDetails::html(const LoadedModel& model, const FoldedModel& folded, const ViewNodeRef& ref)
{
    const Graph& graph = folded.graph();
    QString html;
    switch (ref.kind) {
    case ViewNodeRef::Kind::Coarse: {
        const CoarseNode& node = folded.coarse.node(CoarseNodeId{ref.index});
        html = u"<b>" + text(node.name) + u"</b>" +
               row(tr("Kind"), nodeKindName(node.kind)) +
               row(tr("Ops"), QString::number(node.ops.size()));
        if (node.anchor.isValid()) {
            const Op& anchor = graph.op(node.anchor);
            QStringList inputs;
            for (const TensorId input : anchor.inputs) {
                if (!input.isValid())
                    continue;
                const bool weight = graph.tensor(input).role == TensorRole::Initializer;
                inputs << (weight ? tr("weight %1").arg(shapeOf(graph, input)) : shapeOf(graph, input));
            }
            html += row(tr("Anchor"), text(anchor.type) + u" (" + inputs.join(QStringLiteral(", ")) + u")");
        }
        const auto unsized = std::count_if(node.ops.begin(), node.ops.end(),
                                           [&](OpId id) { return isUnsized(graph, graph.op(id)); });
        if (unsized > 0)
            html += row(tr("Not priced"), tr("%n op(s) whose operand shapes could not be inferred", "",
                                             static_cast<int>(unsized)));
        html += u"<br>" + opRows(graph, node.ops);
        if (node.ops.size() > kMaxRows)
            html += u"<br>" + tr("… and %L1 more ops").arg(node.ops.size() - kMaxRows);
        break;
    }
    case ViewNodeRef::Kind::Family: {
        const Family& family = folded.families.family(FamilyId{ref.index});
        QStringList anchors;
        for (std::size_t i = 0; i < family.anchors.size() && i < kMaxRows; ++i) {
            const CoarseNode& node = folded.coarse.node(family.anchors[i]);
            const std::string prefix = family.representative().scope + "/";
            const bool inside = node.name.starts_with(prefix);
            anchors << text(inside ? node.name.substr(prefix.size()) : node.name) + u" (" +
                           nodeKindName(node.kind) + u")";
        }
        html = u"<b>" + text(family.name) + u"</b>" +
               row(tr("Instances"), QStringLiteral("×%1").arg(family.multiplicity())) +
               row(tr("First"), text(family.instances.front().scope)) +
               row(tr("Last"), text(family.instances.back().scope)) +
               row(tr("Coarse nodes each"), QString::number(family.representative().nodes.size())) +
               row(tr("Anchors"), QString::number(family.anchors.size()));
        if (!family.variants.empty())
            html += row(tr("Near misses"), QString::number(family.variants.size()));
        html += u"<br>" + anchors.join(QStringLiteral("<br>")) + u"<p><i>" +
                tr("Double-click to expand the representative block.") + u"</i></p>";
        break;
    }
    case ViewNodeRef::Kind::Scope: {
        const ScopeNode& scope = model.scopes.node(ScopeNodeId{ref.index});
        std::map<std::string, int> types;
        std::vector<ScopeNodeId> pending{scope.id};
        while (!pending.empty()) {
            const ScopeNode& node = model.scopes.node(pending.back());
            pending.pop_back();
            for (const OpId op : node.ops)
                ++types[graph.op(op).type];
            pending.insert(pending.end(), node.children.begin(), node.children.end());
        }
        std::vector<std::pair<int, std::string>> byCount;
        for (const auto& [type, count] : types)
            byCount.push_back({-count, type});
        std::sort(byCount.begin(), byCount.end());
        QStringList typeList;
        for (std::size_t i = 0; i < byCount.size() && i < 8; ++i)
            typeList << text(byCount[i].second) + u" ×" + QString::number(-byCount[i].first);
        html = u"<b>" + text(scope.path) + u"</b>" +
               row(tr("Ops"), QString::number(scope.totalOpCount)) +
               row(tr("Direct ops"), QString::number(scope.ops.size())) +
               row(tr("Child scopes"), QString::number(scope.children.size())) +
               row(tr("Op types"), typeList.join(QStringLiteral(", "))) + u"<p><i>" +
               tr("Double-click to expand.") + u"</i></p>";
        break;
    }
    case ViewNodeRef::Kind::Op: {
        const Op& op = graph.op(OpId{ref.index});
        QStringList inputs;
        for (const TensorId input : op.inputs) {
            if (input.isValid())
                inputs << text(graph.tensor(input).name) + u" " + shapeOf(graph, input);
        }
        html = u"<b>" + text(op.name.empty() ? op.type : op.name) + u"</b>" + row(tr("Type"), text(op.type)) +
               row(tr("Inputs"), inputs.join(QStringLiteral("<br>"))) +
               row(tr("Outputs"), outputShapes(graph, op));
        if (isUnsized(graph, op))
            html += row(tr("Not priced"), tr("its operand shapes could not be inferred"));
        break;
    }
    }
    return html;
}

}  // namespace tapestry
