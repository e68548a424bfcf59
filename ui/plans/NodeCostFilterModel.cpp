#include "plans/NodeCostFilterModel.h"

#include "plans/NodeCostModel.h"

namespace tapestry {

NodeCostFilterModel::NodeCostFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(NodeCostModel::SortRole);
    setFilterKeyColumn(NodeCostModel::NodeColumn);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void NodeCostFilterModel::setFamily(int family)
{
    if (family == family_)
        return;
    family_ = family;
    invalidateRowsFilter();
}

bool NodeCostFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (family_ != kAnyFamily) {
        const QList<int> families = sourceModel()
                                        ->index(sourceRow, NodeCostModel::NodeColumn, sourceParent)
                                        .data(NodeCostModel::FamilyRole)
                                        .value<QList<int>>();
        if (family_ == kNoFamily ? !families.isEmpty() : !families.contains(family_))
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace tapestry
