#pragma once

#include <QStyledItemDelegate>

namespace tapestry {

// Cuts a cell's text that does not fit in the middle, keeping its beginning and its end
// ("mega…ut-2": the search that named a plan, and its number), for one column of a view
// whose other columns are cut at the right (QAbstractItemView::setTextElideMode sets
// every column's).
class MiddleElidingDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

}  // namespace tapestry
