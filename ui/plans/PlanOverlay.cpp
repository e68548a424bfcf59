#include "plans/PlanOverlay.h"
#include "plans/StrategyText.h"

#include "fold/FoldedModel.h"
#include "graphview/GraphViewContent.h"
#include "plans/ParallelTrafficModel.h"
#include "search/SearchOutcome.h"

#include <algorithm>

namespace tapestry {

PlanOverlay::PlanOverlay(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate)
    : folded_(std::move(folded)),
      candidate_(std::move(candidate)),
      contextVariants_(contextVariants(candidate_->plan, folded_->coarse))
{
    const PipelineLayout& pipeline = candidate_->plan.pipeline;
    if (!pipeline.active())
        return;
    for (const std::size_t chunk : chunkOfNodes(pipeline, folded_->families, folded_->coarse.nodes.size()))
        stageOfNode_.push_back(static_cast<int>(chunk % static_cast<std::size_t>(pipeline.stages)));
}

QColor PlanOverlay::stageColor(int stage, int stages)
{
    return QColor::fromHsvF(0.83 * stage / std::max(1, stages - 1), 0.75, 0.85);
}

QList<GraphLegend::Entry> PlanOverlay::stageLegend() const
{
    QList<GraphLegend::Entry> entries;
    const int stages = candidate_->plan.pipeline.stages;
    if (stageOfNode_.empty())
        return entries;
    for (int s = 0; s < stages; ++s)
        entries << GraphLegend::Entry{stageColor(s, stages), tr("Stage %1").arg(s + 1), false};
    return entries;
}

QList<QColor> PlanOverlay::stageColors(const ViewNodeRef& ref) const
{
    if (stageOfNode_.empty())
        return {};
    std::vector<CoarseNodeId> nodes;
    if (ref.kind == ViewNodeRef::Kind::Coarse) {
        nodes.push_back(CoarseNodeId{ref.index});
    } else if (ref.kind == ViewNodeRef::Kind::Family) {
        // Every instance: the instances of one block spread over the stages.
        for (const BlockInstance& instance : folded_->families.family(FamilyId{ref.index}).instances)
            nodes.push_back(instance.nodes.front());
    }
    std::vector<int> stages;
    for (const CoarseNodeId node : nodes)
        stages.push_back(stageOfNode_.at(node.index()));
    std::sort(stages.begin(), stages.end());
    stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
    QList<QColor> result;
    for (const int stage : stages)
        result << stageColor(stage, candidate_->plan.pipeline.stages);
    return result;
}

std::vector<ContextParallelVariant> PlanOverlay::contextVariants(const Plan& plan, const CoarseGraph& coarse)
{
    std::vector<ContextParallelVariant> variants;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        variants.push_back(contextParallelVariant(plan, coarse, axis));
    return variants;
}

StrategyClass PlanOverlay::classify(CoarseNodeKind kind, const NodeStrategy& strategy,
                                    const std::vector<ContextParallelVariant>& contextVariants)
{
    if (kind == CoarseNodeKind::BatchedMatMul) {
        for (std::size_t axis = 0; axis < strategy.axes.size() && axis < contextVariants.size(); ++axis) {
            const AxisSplit split = strategy.axes[axis];
            if ((split == AxisSplit::Sequence && contextVariants[axis] == ContextParallelVariant::Ring) ||
                (split == AxisSplit::Head && contextVariants[axis] == ContextParallelVariant::Ulysses))
                return StrategyClass::ContextParallel;
        }
    }
    // Batch and sequence splits keep the weights whole: they count as data, not model, splits.
    int modelSplits = 0;
    bool batch = false;
    bool sequence = false;
    AxisSplit named = AxisSplit::None;
    for (const AxisSplit split : strategy.axes) {
        if (split == AxisSplit::Batch)
            batch = true;
        else if (split == AxisSplit::Sequence)
            sequence = true;
        else if (split != AxisSplit::None) {
            ++modelSplits;
            named = split;
        }
    }
    if (modelSplits >= 2)
        return StrategyClass::TwoD;
    switch (named) {
    case AxisSplit::Column: return StrategyClass::Column;
    case AxisSplit::Row: return StrategyClass::Row;
    case AxisSplit::Head: return StrategyClass::Head;
    case AxisSplit::Hidden: return StrategyClass::Hidden;
    case AxisSplit::Expert: return StrategyClass::Expert;
    case AxisSplit::None:
    case AxisSplit::Batch:
    case AxisSplit::Sequence: break;
    }
    if (sequence)
        return StrategyClass::Sequence;
    return batch ? StrategyClass::DataParallel : StrategyClass::Replicated;
}

QColor PlanOverlay::color(StrategyClass strategy)
{
    switch (strategy) {
    case StrategyClass::Replicated: return {0xe0, 0xe0, 0xe0};
    case StrategyClass::DataParallel: return {0xa5, 0xd6, 0xa7};
    case StrategyClass::Column: return {0x90, 0xca, 0xf9};
    case StrategyClass::Row: return {0xf4, 0x8f, 0xb1};
    case StrategyClass::TwoD: return {0xce, 0x93, 0xd8};
    case StrategyClass::Sequence: return {0xff, 0xe0, 0x82};
    case StrategyClass::ContextParallel: return {0xff, 0xb3, 0x00};
    case StrategyClass::Head: return {0x80, 0xde, 0xea};
    case StrategyClass::Hidden: return {0xff, 0xcc, 0x80};
    case StrategyClass::Expert: return {0xbc, 0xaa, 0xa4};
    }
    return Qt::white;
}

QString PlanOverlay::name(StrategyClass strategy)
{
    switch (strategy) {
    case StrategyClass::Replicated: return tr("Replicated");
    case StrategyClass::DataParallel: return tr("Data parallel");
    case StrategyClass::Column: return tr("Column");
    case StrategyClass::Row: return tr("Row");
    case StrategyClass::TwoD: return tr("2D");
    case StrategyClass::Sequence: return tr("Sequence");
    case StrategyClass::ContextParallel: return tr("Context parallel attention");
    case StrategyClass::Head: return tr("Head");
    case StrategyClass::Hidden: return tr("Hidden");
    case StrategyClass::Expert: return tr("Expert parallel");
    }
    return {};
}

QList<GraphLegend::Entry> PlanOverlay::legend()
{
    QList<GraphLegend::Entry> entries;
    for (const StrategyClass strategy :
         {StrategyClass::DataParallel, StrategyClass::Column, StrategyClass::Row, StrategyClass::TwoD,
          StrategyClass::Sequence, StrategyClass::ContextParallel, StrategyClass::Head, StrategyClass::Hidden, StrategyClass::Expert,
          StrategyClass::Replicated})
        entries << GraphLegend::Entry{color(strategy), name(strategy), false};
    entries << GraphLegend::Entry{QColor(0x28, 0x35, 0x93), tr("AR AG RS A2A: collectives"), false};
    return entries;
}

QString PlanOverlay::collectiveName(CollectiveKind kind)
{
    switch (kind) {
    case CollectiveKind::AllReduce: return tr("all-reduce");
    case CollectiveKind::AllGather: return tr("all-gather");
    case CollectiveKind::ReduceScatter: return tr("reduce-scatter");
    case CollectiveKind::AllToAll: return tr("all-to-all");
    }
    return {};
}

QString PlanOverlay::collectiveBadge(const std::array<double, 4>& byCollective)
{
    static const char* const kShort[] = {"AR", "AG", "RS", "A2A"};
    QStringList parts;
    for (std::size_t i = 0; i < byCollective.size(); ++i) {
        if (byCollective[i] > 0)
            parts << QLatin1String(kShort[i]);
    }
    return parts.join(QChar(0x00b7));
}

std::vector<CoarseNodeId> PlanOverlay::nodesOf(const ViewNodeRef& ref) const
{
    if (ref.kind == ViewNodeRef::Kind::Coarse)
        return {CoarseNodeId{ref.index}};
    if (ref.kind == ViewNodeRef::Kind::Family)
        return folded_->families.family(FamilyId{ref.index}).representative().nodes;
    return {};
}

QList<QColor> PlanOverlay::colors(const ViewNodeRef& ref) const
{
    QList<QColor> result;
    for (const CoarseNodeId node : nodesOf(ref)) {
        const QColor c = color(classOf(node));
        if (!result.contains(c))
            result << c;
    }
    return result;
}

QString PlanOverlay::badge(const ViewNodeRef& ref) const
{
    std::array<double, 4> byCollective{};
    for (const CoarseNodeId node : nodesOf(ref)) {
        const auto& time = candidate_->breakdowns().perNode.at(node.index()).time.byCollective;
        for (std::size_t i = 0; i < byCollective.size(); ++i)
            byCollective[i] += time[i];
    }
    return collectiveBadge(byCollective);
}

StrategyClass PlanOverlay::classOf(CoarseNodeId node) const
{
    // A split over an axis of one GPU divides nothing: the box shows what the others do.
    NodeStrategy strategy = candidate_->plan.strategy(node);
    for (std::size_t axis = 0; axis < strategy.axes.size() && axis < candidate_->plan.mesh.size(); ++axis) {
        if (candidate_->plan.mesh[axis].size == 1)
            strategy.axes[axis] = AxisSplit::None;
    }
    return classify(folded_->coarse.node(node).kind, strategy, contextVariants_);
}

QString PlanOverlay::splitsText(CoarseNodeId node) const
{
    const NodeStrategy& strategy = candidate_->plan.strategy(node);
    QStringList parts;
    for (std::size_t axis = 0; axis < strategy.axes.size(); ++axis) {
        parts << QStringLiteral("%1: %2").arg(QString::fromStdString(candidate_->plan.mesh.at(axis).name),
                                              splitName(strategy.axes[axis]));
    }
    return parts.join(QStringLiteral(", "));
}

QString PlanOverlay::html(const ViewNodeRef& ref) const
{
    const std::vector<CoarseNodeId> nodes = nodesOf(ref);
    if (nodes.empty())
        return {};
    CostBreakdown cost;
    for (const CoarseNodeId node : nodes)
        cost.add(candidate_->breakdowns().perNode.at(node.index()));
    QString text = QStringLiteral("<b>%1</b><br>").arg(tr("Plan %1").arg(QString::fromStdString(candidate_->plan.name)).toHtmlEscaped());
    if (nodes.size() == 1) {
        text += tr("Strategy: %1 (%2)")
                    .arg(name(classOf(nodes.front())), splitsText(nodes.front()))
                    .toHtmlEscaped() +
                QStringLiteral("<br>");
    } else {
        text += tr("Per instance (one of the repeated blocks):").toHtmlEscaped() + QStringLiteral("<br>");
    }
    if (!stageOfNode_.empty() && nodes.size() == 1)
        text += tr("Pipeline stage %1").arg(stageOfNode_.at(nodes.front().index()) + 1) + QStringLiteral("<br>");
    text += tr("Compute: %L1 ms").arg(cost.time.computeSeconds * 1e3, 0, 'f', 3) + QStringLiteral("<br>");
    for (std::size_t i = 0; i < cost.time.byCollective.size(); ++i) {
        if (cost.time.byCollective[i] > 0)
            text += tr("Communication, %1: %L2 ms").arg(collectiveName(kAllCollectiveKinds[i])).arg(cost.time.byCollective[i] * 1e3, 0, 'f', 3) +
                    QStringLiteral("<br>");
    }
    text += transfersHtml(nodes);
    text += tr("Memory: %L1 GB").arg(cost.memory.total() / 1e9, 0, 'f', 3);
    return text;
}

QString PlanOverlay::transfersHtml(const std::vector<CoarseNodeId>& nodes) const
{
    using Technique = ParallelTrafficModel::Technique;
    // (technique, axis) -> (seconds, hidden seconds), in the order they first appear.
    std::vector<std::pair<std::pair<Technique, std::size_t>, std::pair<double, double>>> sums;
    for (const ParallelTransfer& t : candidate_->breakdowns().parallelTransfers) {
        if (std::find(nodes.begin(), nodes.end(), t.node) == nodes.end())
            continue;
        const std::pair key{ParallelTrafficModel::techniqueOf(t.purpose), t.axis};
        auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& entry) { return entry.first == key; });
        if (it == sums.end())
            it = sums.insert(sums.end(), {key, {0.0, 0.0}});
        it->second.first += t.seconds();
        it->second.second += t.seconds() - t.exposedSeconds();
    }
    QString text;
    for (const auto& [key, seconds] : sums) {
        const MeshAxis& axis = candidate_->plan.mesh.at(key.second);
        const QString over = QStringLiteral("%1 (%2)").arg(QString::fromStdString(axis.name)).arg(axis.size);
        const QString time = QStringLiteral("%L1").arg(seconds.first * 1e3, 0, 'f', 3);
        QString line;
        switch (key.first) {
        case Technique::RingAttention:
            line = tr("Ring attention over %1: %2 ms, %L3 ms of it hidden")
                       .arg(over, time)
                       .arg(seconds.second * 1e3, 0, 'f', 3);
            break;
        case Technique::Ulysses: line = tr("Ulysses all-to-alls over %1: %2 ms").arg(over, time); break;
        case Technique::Experts: line = tr("Expert all-to-alls over %1: %2 ms").arg(over, time); break;
        }
        text += line.toHtmlEscaped() + QStringLiteral("<br>");
    }
    return text;
}

}  // namespace tapestry
