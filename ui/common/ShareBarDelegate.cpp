#include "common/ShareBarDelegate.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace tapestry {

ShareBarDelegate::ShareBarDelegate(int fractionRole, QObject* parent)
    : QStyledItemDelegate(parent), fractionRole_(fractionRole)
{
}

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QString text = cell.text;
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();

    // Background and selection as usual, then the bar, then the text over it.
    cell.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);

    const QRect area = option.rect.adjusted(2, 2, -2, -2);
    const double fraction = std::clamp(index.data(fractionRole_).toDouble(), 0.0, 1.0);
    QColor color = option.palette.color(QPalette::Highlight);
    color.setAlphaF(0.3f);
    painter->fillRect(QRect(area.topLeft(), QSize(static_cast<int>(area.width() * fraction), area.height())), color);

    const QPalette::ColorRole textRole =
        (cell.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text;
    style->drawItemText(painter, area.adjusted(4, 0, -4, 0), cell.displayAlignment.toInt(), cell.palette, true,
                        text, textRole);
}

}  // namespace tapestry
