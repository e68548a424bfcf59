#include "common/MiddleElidingDelegate.h"

namespace tapestry {

void MiddleElidingDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = Qt::ElideMiddle;
}

}  // namespace tapestry
