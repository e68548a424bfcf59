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

PlanDiffModel::PlanDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanDiffModel::setComparison(std::shared_ptr<const PlanComparison> comparison)
{
    beginResetModel();
    comparison_ = std::move(comparison);
    endResetModel();
}

int PlanDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !comparison_ ? 0 : static_cast<int>(comparison_->diff.changes.size());
}

int PlanDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanDiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !comparison_)
        return {};
    const NodeStrategyChange& change = comparison_->diff.changes.at(static_cast<std::size_t>(index.row()));
    const CostBreakdown& a = comparison_->a->breakdowns().perNode.at(change.node.index());
    const CostBreakdown& b = comparison_->b->breakdowns().perNode.at(change.node.index());
    const double stepDelta = b.time.stepSeconds() - a.time.stepSeconds();
    const double memoryDelta = b.memory.total() - a.memory.total();
    if (role == Qt::TextAlignmentRole && index.column() >= StepDeltaColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NodeColumn)
        return QString::fromStdString(change.name);
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
    case NodeColumn: return QString::fromStdString(change.name);
    case StrategyAColumn: return strategyText(comparison_->a->plan.mesh, change.before);
    case StrategyBColumn: return strategyText(comparison_->b->plan.mesh, change.after);
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
