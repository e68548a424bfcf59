#pragma once

#include <QSortFilterProxyModel>

namespace tapestry {

// The search results sorted by a column with the plans that fit the memory limit ahead
// of those that do not, whichever way the column sorts: a plan that does not fit is
// never the first one offered. A plan another row lists already as one physical plan is
// left out (SearchResultsModel::isRepeat).
class SearchResultsSortModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    [[nodiscard]] bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
};

}  // namespace tapestry
