#include "plans/ParallelTrafficModel.h"

#include "fold/FoldedModel.h"
#include "plans/PlanOverlay.h"
#include "search/PlanCandidate.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace tapestry {

ParallelTrafficModel::Technique ParallelTrafficModel::techniqueOf(ParallelTransfer::Purpose purpose)
{
    switch (purpose) {
    case ParallelTransfer::Purpose::RingForward:
    case ParallelTransfer::Purpose::RingBackward:
    case ParallelTransfer::Purpose::RingGradients: return Technique::RingAttention;
    case ParallelTransfer::Purpose::UlyssesForward:
    case ParallelTransfer::Purpose::UlyssesBackward: return Technique::Ulysses;
    case ParallelTransfer::Purpose::ExpertDispatch:
    case ParallelTransfer::Purpose::ExpertCombine:
    case ParallelTransfer::Purpose::ExpertWeights: break;
    }
    return Technique::Experts;
}

ParallelTrafficModel::ParallelTrafficModel(QObject* parent) : QAbstractTableModel(parent) {}

void ParallelTrafficModel::setPlan(std::shared_ptr<const FoldedModel> folded,
                                   std::shared_ptr<const PlanCandidate> candidate)
{
    beginResetModel();
    candidate_ = folded ? std::move(candidate) : nullptr;
    rows_.clear();
    if (candidate_) {
        // A node's layer: the outermost block instance holding it, else the node itself.
        std::vector<std::pair<QString, std::size_t>> layerOf;  // name, first node
        for (const CoarseNode& node : folded->coarse.nodes)
            layerOf.emplace_back(QString::fromStdString(node.name), node.id.index());
        for (const Family& family : folded->families.families) {
            if (family.parent.isValid())
                continue;
            for (const BlockInstance& instance : family.instances) {
                for (const CoarseNodeId node : instance.nodes)
                    layerOf.at(node.index()) = {QString::fromStdString(instance.scope), instance.nodes.front().index()};
            }
        }
        std::map<std::tuple<QString, ParallelTransfer::Purpose, std::size_t>, std::size_t> rowOf;
        for (const ParallelTransfer& t : candidate_->breakdowns().parallelTransfers) {
            const auto& [layer, order] = layerOf.at(t.node.index());
            const auto [it, added] = rowOf.try_emplace({layer, t.purpose, t.axis}, rows_.size());
            if (added)
                rows_.push_back(Row{layer, order, t.purpose, t.kind, t.axis, t.price});
            Row& row = rows_[it->second];
            row.byteCalls += t.bytes * t.times;
            row.calls += t.times;
            row.seconds += t.seconds();
            row.exposedSeconds += t.exposedSeconds();
        }
        // Ulysses' all-to-alls come after the others in the listing.
        std::stable_sort(rows_.begin(), rows_.end(),
                         [](const Row& a, const Row& b) { return a.layerOrder < b.layerOrder; });
    }
    endResetModel();
}

QString ParallelTrafficModel::purposeText(ParallelTransfer::Purpose purpose)
{
    switch (purpose) {
    case ParallelTransfer::Purpose::RingForward: return tr("Ring attention: keys and values, forward");
    case ParallelTransfer::Purpose::RingBackward: return tr("Ring attention: keys and values, backward");
    case ParallelTransfer::Purpose::RingGradients: return tr("Ring attention: their gradients, backward");
    case ParallelTransfer::Purpose::ExpertDispatch: return tr("Expert dispatch: tokens to their experts");
    case ParallelTransfer::Purpose::ExpertCombine: return tr("Expert combine: expert outputs back");
    case ParallelTransfer::Purpose::ExpertWeights: return tr("Expert weights: each copy's routing weight");
    case ParallelTransfer::Purpose::UlyssesForward: return tr("Ulysses: sequence and heads swapped, forward");
    case ParallelTransfer::Purpose::UlyssesBackward: return tr("Ulysses: their gradients swapped back, backward");
    }
    return {};
}

QString ParallelTrafficModel::linksText(const CollectiveBreakdown& price)
{
    QStringList stages;
    for (std::size_t i = 0; i < price.stageCount; ++i) {
        const CollectiveStage& stage = price.stages[i];
        const QString link = stage.link == LinkClass::Intra ? tr("intra-node") : tr("inter-node");
        stages << tr("%1 GPUs, %2").arg(stage.groupSize).arg(link);
    }
    return stages.join(QStringLiteral(" + "));
}

int ParallelTrafficModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ParallelTrafficModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !candidate_ ? 0 : ColumnCount;
}

QVariant ParallelTrafficModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = rows_.at(static_cast<std::size_t>(index.row()));
    const int column = index.column();
    if (role == Qt::TextAlignmentRole && column >= BytesColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const MeshAxis& axis = candidate_->plan.mesh.at(row.axis);
    double value = 0;
    int decimals = 4;
    switch (column) {
    case LayerColumn: return row.layer;
    case PurposeColumn: return purposeText(row.purpose);
    case CollectiveColumn: return PlanOverlay::collectiveName(row.kind);
    case AxisColumn: return QStringLiteral("%1 (%2)").arg(QString::fromStdString(axis.name)).arg(axis.size);
    case LinksColumn: return linksText(row.price);
    case BytesColumn:
        value = row.bytesPerCall() / 1e6;
        decimals = 3;
        break;
    case CallsColumn:
        value = row.calls;
        decimals = value == std::round(value) ? 0 : 2;
        break;
    case TimeColumn: value = row.seconds * 1e3; break;
    case HiddenColumn: value = (row.seconds - row.exposedSeconds) * 1e3; break;
    case ExposedColumn: value = row.exposedSeconds * 1e3; break;
    default: return {};
    }
    if (role == SortRole)
        return value;
    return QStringLiteral("%L1").arg(value, 0, 'f', decimals);
}

QVariant ParallelTrafficModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LayerColumn: return tr("Layer");
    case PurposeColumn: return tr("Transfer");
    case CollectiveColumn: return tr("Collective");
    case AxisColumn: return tr("Axis");
    case LinksColumn: return tr("Links");
    case BytesColumn: return tr("Per call (MB)");
    case CallsColumn: return tr("Calls per step");
    case TimeColumn: return tr("Time (ms)");
    case HiddenColumn: return tr("Hidden (ms)");
    case ExposedColumn: return tr("Exposed (ms)");
    default: return {};
    }
}

}  // namespace tapestry
