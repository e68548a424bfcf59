#include "plans/PlanDiffModel.h"

#include "search/PlanComparison.h"
#include "search/SearchOutcome.h"
#include "plans/StrategyText.h"

namespace tapestry {

namespace {

QString signedNumber(double value, int decimals)
{
    return (value > 0 ? QStringLiteral("+") : QString()) + QStringLiteral("%L1").arg(value, 0, 'f', decimals);
}

}  // namespace

QString PlanDiffModel::groupName(const StrategyChangeGroup& group)
{
    // The count last: the table cuts names on the left, keeping what the node is.
    const QString name = QString::fromStdString(group.name);
    return group.nodes.size() > 1
               ? tr("%1 ×%2", "a repeated block's position and how many of its instances changed")
                     .arg(name)
                     .arg(group.nodes.size())
               : name;
}

PlanDiffModel::PlanDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanDiffModel::setComparison(std::shared_ptr<const PlanComparison> comparison)
{
    beginResetModel();
    comparison_ = std::move(comparison);
    endResetModel();
}

int PlanDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !comparison_ ? 0 : static_cast<int>(comparison_->groups.size());
}

int PlanDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !comparison_)
        return {};
    const StrategyChangeGroup& group = comparison_->groups.at(static_cast<std::size_t>(index.row()));
    double stepDelta = 0;
    double memoryDelta = 0;
    for (const CoarseNodeId node : group.nodes) {
        const CostBreakdown& a = comparison_->a->breakdowns().perNode.at(node.index());
        const CostBreakdown& b = comparison_->b->breakdowns().perNode.at(node.index());
        stepDelta += b.time.stepSeconds() - a.time.stepSeconds();
        memoryDelta += b.memory.total() - a.memory.total();
    }
    const QString name = QString::fromStdString(group.name);
    const int count = static_cast<int>(group.nodes.size());
    if (role == Qt::TextAlignmentRole && index.column() >= StepDeltaColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NodeColumn)
        return count > 1 ? tr("%1: the same change in %2 instances of the repeated block; the deltas are their sum")
                               .arg(name)
                               .arg(count)
                         : name;
    if (role == SortRole) {
        switch (index.column()) {
        case StepDeltaColumn: return stepDelta;
        case MemoryDeltaColumn: return memoryDelta;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NodeColumn: return groupName(group);
    case StrategyAColumn: return strategyText(comparison_->a->plan.mesh, group.before);
    case StrategyBColumn: return strategyText(comparison_->b->plan.mesh, group.after);
    case StepDeltaColumn: return signedNumber(stepDelta * 1e3, 3);
    case MemoryDeltaColumn: return signedNumber(memoryDelta / 1e9, 3);
    default: return {};
    }
}

QVariant PlanDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn: return tr("Node");
    case StrategyAColumn: return tr("Strategy in A");
    case StrategyBColumn: return tr("Strategy in B");
    case StepDeltaColumn: return tr("Δ step (ms)");
    case MemoryDeltaColumn: return tr("Δ memory (GB)");
    default: return {};
    }
}

}  // namespace tapestry
