#include "GraphLegend.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

namespace tapestry {

namespace {

QPixmap swatch(const GraphLegend::Entry& entry, qreal dpr)
{
    const QSize size(22, 14);
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
    layout_ = new QHBoxLayout(this);
    layout_->setContentsMargins(4, 2, 4, 2);
    layout_->setSpacing(6);
}

void GraphLegend::setEntries(const QList<Entry>& entries)
{
    while (QLayoutItem* item = layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const Entry& entry : entries) {
        auto* icon = new QLabel(this);
        icon->setPixmap(swatch(entry, devicePixelRatioF()));
        auto* text = new QLabel(entry.text, this);
        layout_->addWidget(icon);
        layout_->addWidget(text);
        layout_->addSpacing(8);
    }
    layout_->addStretch(1);
}

}  // namespace tapestry
