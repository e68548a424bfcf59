#include "plans/NodeCostModel.h"
#include "plans/StrategyText.h"

#include "fold/FoldedModel.h"
#include "plans/PlanOverlay.h"
#include "search/SearchOutcome.h"

namespace tapestry {

NodeCostModel::NodeCostModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeCostModel::setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate)
{
    beginResetModel();
    folded_ = candidate ? std::move(folded) : nullptr;
    candidate_ = folded_ ? std::move(candidate) : nullptr;
    familiesOfNode_.clear();
    contextVariants_.clear();
    if (folded_) {
        contextVariants_ = PlanOverlay::contextVariants(candidate_->plan, folded_->coarse);
        familiesOfNode_.resize(folded_->coarse.nodes.size());
        for (const Family& family : folded_->families.families) {
            for (const BlockInstance& instance : family.instances) {
                for (const CoarseNodeId node : instance.nodes)
                    familiesOfNode_[node.index()] << static_cast<int>(family.id.index());
            }
        }
    }
    endResetModel();
}

int NodeCostModel::axisCount() const
{
    return candidate_ ? static_cast<int>(candidate_->plan.mesh.size()) : 0;
}

int NodeCostModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !candidate_ ? 0 : static_cast<int>(folded_->coarse.nodes.size());
}

int NodeCostModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !candidate_ ? 0 : memoryColumn() + 1;
}

QVariant NodeCostModel::data(const QModelIndex& index, int role) const
{
    if (!candidate_ || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const std::size_t row = static_cast<std::size_t>(index.row());
    const CoarseNode& node = folded_->coarse.nodes[row];
    const CostBreakdown& cost = candidate_->breakdowns().perNode.at(row);
    const int column = index.column();
    if (role == FamilyRole)
        return QVariant::fromValue(familiesOfNode_[row]);
    if (role == Qt::TextAlignmentRole && column >= computeColumn() && column != collectivesColumn())
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == NodeColumn)
        return QString::fromStdString(node.name);
    if (role == Qt::DecorationRole && column >= FirstSplitColumn && column < computeColumn()) {
        const AxisSplit split = candidate_->plan.strategy(node.id).axes.at(static_cast<std::size_t>(column - FirstSplitColumn));
        const std::size_t axis = static_cast<std::size_t>(column - FirstSplitColumn);
        // An axis of one GPU divides nothing: grey, as the graph draws it.
        if (candidate_->plan.mesh.at(axis).size == 1)
            return PlanOverlay::color(StrategyClass::Replicated);
        return PlanOverlay::color(PlanOverlay::classify(node.kind, NodeStrategy{{split}}, {contextVariants_.at(axis)}));
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    if (column == NodeColumn)
        return QString::fromStdString(node.name);
    if (column == KindColumn)
        return nodeKindName(node.kind);
    if (column < computeColumn()) {
        const AxisSplit split = candidate_->plan.strategy(node.id).axes.at(static_cast<std::size_t>(column - FirstSplitColumn));
        return splitName(split);
    }
    if (column == collectivesColumn())
        return PlanOverlay::collectiveBadge(cost.time.byCollective);
    double value = 0;
    if (column == computeColumn())
        value = cost.time.computeSeconds * 1e3;
    else if (column == communicationColumn())
        value = cost.time.communicationSeconds() * 1e3;
    else
        value = cost.memory.total() / 1e9;
    if (!display)
        return value;
    return QStringLiteral("%L1").arg(value, 0, 'f', 3);
}

QVariant NodeCostModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return {};
    if (section == NodeColumn)
        return tr("Node");
    if (section == KindColumn)
        return tr("Kind");
    if (section < computeColumn())
        return tr("Split (%1)").arg(QString::fromStdString(candidate_->plan.mesh.at(static_cast<std::size_t>(section - FirstSplitColumn)).name));
    if (section == computeColumn())
        return tr("Compute (ms)");
    if (section == communicationColumn())
        return tr("Comm. (ms)");
    if (section == collectivesColumn())
        return tr("Collectives");
    return tr("Memory (GB)");
}

}  // namespace tapestry
