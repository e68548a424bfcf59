#include "model/ScopeTreeModel.h"

#include "model/LoadedModel.h"
#include "common/QuantityFormat.h"

namespace tapestry {

// Each index's internal id is its ScopeNodeId; the ScopeTree root is the one top-level row.

ScopeTreeModel::ScopeTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

ScopeTreeModel::~ScopeTreeModel() = default;

void ScopeTreeModel::setModel(std::shared_ptr<const LoadedModel> model)
{
    beginResetModel();
    model_ = std::move(model);
    endResetModel();
}

const ScopeTree* ScopeTreeModel::tree() const
{
    return model_ ? &model_->scopes : nullptr;
}

QModelIndex ScopeTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr{tree()->root().value()});
    const ScopeNode& node = tree()->node(ScopeNodeId{static_cast<std::size_t>(parent.internalId())});
    return createIndex(row, column, quintptr{node.children.at(static_cast<std::size_t>(row)).value()});
}

QModelIndex ScopeTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const ScopeNode& node = tree()->node(ScopeNodeId{static_cast<std::size_t>(child.internalId())});
    if (!node.parent.isValid())
        return {};
    return createIndex(static_cast<int>(tree()->rowInParent(node.parent)), 0, quintptr{node.parent.value()});
}

int ScopeTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!tree())
        return 0;
    if (!parent.isValid())
        return 1;
    if (parent.column() != NameColumn)
        return 0;
    const ScopeNode& node = tree()->node(ScopeNodeId{static_cast<std::size_t>(parent.internalId())});
    return static_cast<int>(node.children.size());
}

int ScopeTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ScopeTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ScopeNode& node = tree()->node(ScopeNodeId{static_cast<std::size_t>(index.internalId())});
    const bool isRoot = node.id == tree()->root();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return isRoot ? tr("(whole graph)") : QString::fromStdString(node.name);
        case TotalOpsColumn: return QuantityFormat::exact(node.totalOpCount);
        case DirectOpsColumn: return QuantityFormat::exact(node.ops.size());
        }
        break;
    case Qt::ToolTipRole:
        if (isRoot)
            return tr("All ops of the model. Its direct ops are the ops that belong to no module scope.");
        return QString::fromStdString(node.path);
    case PathRole:
        return QString::fromStdString(node.path);
    case Qt::TextAlignmentRole:
        if (index.column() != NameColumn)
            return (Qt::AlignRight | Qt::AlignVCenter).toInt();
        break;
    }
    return {};
}

QVariant ScopeTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn: return tr("Scope");
        case TotalOpsColumn: return tr("Ops");
        case DirectOpsColumn: return tr("Direct ops");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("Module scope, as the exporter named it");
        case TotalOpsColumn: return tr("Ops in this scope and everything below it");
        case DirectOpsColumn: return tr("Ops in this scope itself, not in a child scope");
        }
    }
    if (role == Qt::TextAlignmentRole && section != NameColumn)
        return (Qt::AlignRight | Qt::AlignVCenter).toInt();
    return {};
}

}  // namespace tapestry
