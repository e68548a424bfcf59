#include "graphview/GraphLegend.h"

#include <QLabel>
#include <QPainter>
#include <QPixmap>

#include <algorithm>

namespace tapestry {

namespace {

QPixmap swatch(const GraphLegend::Entry& entry, qreal dpr)
{
    const QSize size(16, 11);
    QPixmap pixmap(size * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QColor(0x5f, 0x63, 0x68));
    painter.setBrush(entry.color);
    painter.drawRoundedRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1), 3, 3);
    if (entry.emphasized) {
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(2.5, 2.5, size.width() - 5, size.height() - 5), 2, 2);
    }
    return pixmap;
}

}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent)
{
    // A key, not content: smaller than the text around it, so that it takes one line
    // under a laptop's graph where it can.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    setFont(small);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void GraphLegend::setEntries(const QList<Entry>& entries)
{
    for (const auto& [icon, text] : items_) {
        delete icon;
        delete text;
    }
    items_.clear();
    for (const Entry& entry : entries) {
        auto* icon = new QLabel(this);
        icon->setPixmap(swatch(entry, devicePixelRatioF()));
        auto* text = new QLabel(entry.text, this);
        icon->show();
        text->show();
        items_.append(qMakePair(icon, text));
    }
    arrange(width(), true);
    updateGeometry();
}

int GraphLegend::arrange(int width, bool apply) const
{
    constexpr int kMargin = 4;
    constexpr int kGap = 4;       // between a swatch and its name
    constexpr int kSpacing = 10;  // between entries
    int x = kMargin;
    int y = 2;
    int lineHeight = 0;
    for (const auto& [icon, text] : items_) {
        const QSize iconSize = icon->sizeHint();
        const QSize textSize = text->sizeHint();
        const int entryWidth = iconSize.width() + kGap + textSize.width();
        if (x > kMargin && x + entryWidth > width - kMargin) {
            x = kMargin;
            y += lineHeight + 2;
            lineHeight = 0;
        }
        const int height = std::max(iconSize.height(), textSize.height());
        if (apply) {
            icon->setGeometry(x, y + (height - iconSize.height()) / 2, iconSize.width(), iconSize.height());
            text->setGeometry(x + iconSize.width() + kGap, y + (height - textSize.height()) / 2, textSize.width(),
                              textSize.height());
        }
        x += entryWidth + kSpacing;
        lineHeight = std::max(lineHeight, height);
    }
    return items_.isEmpty() ? 0 : y + lineHeight + 2;
}

int GraphLegend::heightForWidth(int width) const
{
    return arrange(width, false);
}

QSize GraphLegend::sizeHint() const
{
    // One line as wide as the entries need; the layout narrows it and asks heightForWidth.
    const int oneLine = arrange(QWIDGETSIZE_MAX, false);
    int width = 8;
    for (const auto& [icon, text] : items_)
        width += icon->sizeHint().width() + 4 + text->sizeHint().width() + 10;
    return {width, oneLine};
}

QSize GraphLegend::minimumSizeHint() const
{
    return {0, arrange(QWIDGETSIZE_MAX, false)};
}

void GraphLegend::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrange(width(), true);
}

}  // namespace tapestry
