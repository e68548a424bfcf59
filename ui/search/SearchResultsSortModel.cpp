#include "search/SearchResultsSortModel.h"

#include "search/SearchResultsModel.h"

namespace tapestry {

bool SearchResultsSortModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const auto fits = [](const QModelIndex& index) {
        return index.siblingAtColumn(SearchResultsModel::FitsColumn).data(SearchResultsModel::SortRole).toBool();
    };
    const bool leftFits = fits(left);
    const bool rightFits = fits(right);
    if (leftFits != rightFits && left.column() != SearchResultsModel::FitsColumn)
        // Descending order reverses lessThan: fitting plans stay first either way.
        return sortOrder() == Qt::AscendingOrder ? leftFits : rightFits;
    return QSortFilterProxyModel::lessThan(left, right);
}

bool SearchResultsSortModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* results = qobject_cast<const SearchResultsModel*>(sourceModel());
    return !sourceParent.isValid() && !(results && results->isRepeat(sourceRow));
}

}  // namespace tapestry
