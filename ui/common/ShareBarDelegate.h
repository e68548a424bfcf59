#pragma once

#include <QStyledItemDelegate>

namespace tapestry {

// Draws a bar behind a cell's text, as long as the fraction (0 to 1) that the model gives
// for `fractionRole`, so a column of shares reads as a histogram.
class ShareBarDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    ShareBarDelegate(int fractionRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int fractionRole_;
};

}  // namespace tapestry
