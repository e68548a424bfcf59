#include "history/HistoryTreeModel.h"

#include "plans/PlanSummary.h"

#include <QDateTime>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPalette>
#include <QStringList>

#include <algorithm>

namespace tapestry {

namespace {

QString meshText(const std::vector<MeshAxis>& mesh)
{
    QStringList sizes;
    QStringList names;
    for (const MeshAxis& axis : mesh) {
        sizes << QString::number(axis.size);
        names << QString::fromStdString(axis.name);
    }
    return QStringLiteral("[%1] (%2)").arg(sizes.join(QStringLiteral(", ")), names.join(QStringLiteral(", ")));
}

// "pp16×dp2×tp4": short enough for a name.
QString shortMeshText(const std::vector<MeshAxis>& mesh)
{
    QStringList axes;
    for (const MeshAxis& axis : mesh)
        axes << QString::fromStdString(axis.name) + QString::number(axis.size);
    return axes.join(QStringLiteral("×"));
}

QString originText(PlanOrigin origin)
{
    switch (origin) {
    case PlanOrigin::Expert: return HistoryTreeModel::tr("expert");
    case PlanOrigin::Search: return HistoryTreeModel::tr("searched");
    case PlanOrigin::Edit: return HistoryTreeModel::tr("edited");
    case PlanOrigin::Import: return HistoryTreeModel::tr("imported");
    }
    return {};
}

QString timeText(double secondsSinceEpoch)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(secondsSinceEpoch * 1000)),
                              QLocale::ShortFormat);
}

}  // namespace

HistoryTreeModel::HistoryTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void HistoryTreeModel::setSnapshot(std::shared_ptr<const HistorySnapshot> snapshot)
{
    beginResetModel();
    snapshot_ = std::move(snapshot);
    endResetModel();
}

std::size_t HistoryTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<std::size_t>(index.internalId()) : 0;
}

QModelIndex HistoryTreeModel::indexOfNode(std::size_t node, int column) const
{
    if (!snapshot_ || node == 0)
        return {};
    const std::vector<std::size_t>& siblings = snapshot_->nodes[snapshot_->nodes[node].parent].children;
    const auto row = std::find(siblings.begin(), siblings.end(), node) - siblings.begin();
    return createIndex(static_cast<int>(row), column, static_cast<quintptr>(node));
}

const PlanRecord* HistoryTreeModel::planAt(const QModelIndex& index) const
{
    if (!snapshot_ || !index.isValid())
        return nullptr;
    const HistorySnapshot::Node& node = snapshot_->nodes[nodeOf(index)];
    return node.kind == HistorySnapshot::Node::Kind::Plan ? &node.plan : nullptr;
}

QModelIndex HistoryTreeModel::indexOfPlan(PlanRecordId id) const
{
    if (!snapshot_)
        return {};
    for (std::size_t node = 1; node < snapshot_->nodes.size(); ++node) {
        const HistorySnapshot::Node& n = snapshot_->nodes[node];
        if (n.kind == HistorySnapshot::Node::Kind::Plan && n.plan.id == id)
            return indexOfNode(node, 0);
    }
    return {};
}

QModelIndex HistoryTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!snapshot_ || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const std::vector<std::size_t>& children = snapshot_->nodes[nodeOf(parent)].children;
    if (row >= static_cast<int>(children.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex HistoryTreeModel::parent(const QModelIndex& child) const
{
    if (!snapshot_ || !child.isValid())
        return {};
    return indexOfNode(snapshot_->nodes[nodeOf(child)].parent, 0);
}

int HistoryTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!snapshot_ || (parent.isValid() && parent.column() != 0))
        return 0;
    return static_cast<int>(snapshot_->nodes[nodeOf(parent)].children.size());
}

int HistoryTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant HistoryTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !snapshot_)
        return {};
    const HistorySnapshot::Node& node = snapshot_->nodes[nodeOf(index)];
    const bool isPlan = node.kind == HistorySnapshot::Node::Kind::Plan;
    switch (role) {
    case Qt::DisplayRole: return display(node, index.column());
    case PlanIdRole: return isPlan ? node.plan.id.value() : 0u;
    case StaleRole: return isPlan && node.plan.stale;
    case Qt::ForegroundRole:
        if (isPlan && node.plan.stale)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::ToolTipRole:
        if (isPlan && node.plan.stale)
            return tr("Made for an earlier version of the model or cluster: re-cost it for the current one.");
        if (isPlan)
            return readableName(node.plan);
        if (node.kind == HistorySnapshot::Node::Kind::Run) {
            // What the plans had to fit in: the HBM less the headroom the run was given.
            const QString limit = node.run.settings.memoryLimitBytes
                                      ? tr("Memory limit %L1 GB per device.")
                                            .arg(*node.run.settings.memoryLimitBytes / 1e9, 0, 'f', 1)
                                      : QString();
            return QStringList{QString::fromStdString(node.run.message), limit}.join(u'\n').trimmed();
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == StepColumn || index.column() == MemoryColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant HistoryTreeModel::display(const HistorySnapshot::Node& node, int column) const
{
    using Kind = HistorySnapshot::Node::Kind;
    if (node.kind == Kind::Others)
        return column == NameColumn ? tr("Plans outside runs") : QVariant();
    if (node.kind == Kind::Run) {
        const RunRecord& run = node.run;
        switch (column) {
        case NameColumn: {
            const QString model = QFileInfo(QString::fromStdString(run.modelPath)).fileName();
            // Runs recorded since history schema 5 name the stack they searched for.
            if (const std::optional<TrainingStack> stack = trainingStackFromName(run.settings.target))
                return tr("Run %1: %2 %3 for %4 of %5")
                    .arg(run.id.value())
                    .arg(QString::fromStdString(run.settings.command), QString::fromStdString(run.settings.mode),
                         PlanSummary::stackName(*stack), model);
            return tr("Run %1: %2 %3 of %4")
                .arg(run.id.value())
                .arg(QString::fromStdString(run.settings.command), QString::fromStdString(run.settings.mode), model);
        }
        case StateColumn: return QString::fromLatin1(runStatusName(run.status));
        case StepColumn:  // how long the run took
            return run.finishedAt ? QVariant(tr("took %L1 s").arg(*run.finishedAt - run.startedAt, 0, 'f', 1))
                                  : QVariant();
        case MeshColumn: return QString::fromStdString(run.clusterName);
        case CreatedColumn: return timeText(run.startedAt);
        default: return {};
        }
    }
    const PlanRecord& plan = node.plan;
    switch (column) {
    case NameColumn: {
        // Under a run, whose row names the model, and beside the state and mesh columns, the
        // id and the plan's own name are what tells the rows apart: the long name (model,
        // mesh, origin) pushed the step and memory beyond a laptop's dock. Elsewhere (plans
        // outside runs, of any model) the whole name.
        std::size_t above = node.parent;
        while (snapshot_->nodes[above].kind == HistorySnapshot::Node::Kind::Plan)
            above = snapshot_->nodes[above].parent;
        if (snapshot_->nodes[above].kind == HistorySnapshot::Node::Kind::Run)
            return tr("#%1 %2").arg(plan.id.value()).arg(QString::fromStdString(plan.name));
        return readableName(plan);
    }
    case StateColumn: {
        const QString origin = originText(plan.origin);
        return plan.stale ? tr("%1, stale").arg(origin) : origin;
    }
    case StepColumn:
        return plan.cost ? QVariant(QStringLiteral("%L1 ms").arg(plan.cost->stepSeconds * 1e3, 0, 'f', 2)) : QVariant();
    case MemoryColumn:
        return plan.cost ? QVariant(QStringLiteral("%L1 GB").arg(plan.cost->memoryBytes / 1e9, 0, 'f', 2)) : QVariant();
    case MeshColumn: return meshText(plan.meshAxes);
    case TagsColumn: {
        QStringList tags;
        for (const std::string& tag : plan.tags)
            tags << QString::fromStdString(tag);
        return tags.join(QStringLiteral(", "));
    }
    case CreatedColumn: return timeText(plan.createdAt);
    default: return {};
    }
}

QString HistoryTreeModel::readableName(const PlanRecord& plan)
{
    const QString model = QFileInfo(QString::fromStdString(plan.modelPath)).completeBaseName();
    return tr("#%1 %2 %3, %4: %5")
        .arg(plan.id.value())
        .arg(model.isEmpty() ? tr("(no model)") : model, shortMeshText(plan.meshAxes), originText(plan.origin),
             QString::fromStdString(plan.name));
}

QVariant HistoryTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Run or plan");
    case StateColumn: return tr("State");
    case StepColumn: return tr("Step");
    case MemoryColumn: return tr("Memory");
    case MeshColumn: return tr("Mesh or cluster");
    case TagsColumn: return tr("Tags");
    case CreatedColumn: return tr("Created");
    default: return {};
    }
}

}  // namespace tapestry
