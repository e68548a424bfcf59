#include "graphview/GraphNodeItem.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace tapestry {

namespace {

constexpr double kRadius = 6;
constexpr double kOutlineMargin = 3;  // room for the thick outline outside the box

const QColor& borderColor()
{
    static const QColor color(0x5f, 0x63, 0x68);
    return color;
}

const QColor& selectedColor()
{
    static const QColor color(0x1a, 0x73, 0xe8);
    return color;
}

const QColor& matchColor()
{
    static const QColor color(0xe8, 0x71, 0x0a);
    return color;
}

const QColor& badgeColor()
{
    static const QColor color(0xa6, 0x4b, 0x00);
    return color;
}

const QColor& collectivesColor()
{
    static const QColor color(0x28, 0x35, 0x93);
    return color;
}

}  // namespace

GraphNodeItem::GraphNodeItem(std::size_t index, QSizeF size, Style style, const QFont& font,
                             std::function<QString(std::size_t)> details)
    : index_(index), box_(-size.width() / 2, -size.height() / 2, size.width(), size.height()),
      style_(std::move(style)), font_(font), details_(std::move(details))
{
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setZValue(1);  // above edges and cluster frames
}

void GraphNodeItem::setMatch(bool match)
{
    if (match_ == match)
        return;
    match_ = match;
    update();
}

QRectF GraphNodeItem::badgeRect() const
{
    if (style_.badge.isEmpty())
        return {};
    QFont bold = font_;
    bold.setBold(true);
    const QSizeF text = QFontMetricsF(bold).size(0, style_.badge);
    const QSizeF size(text.width() + 10, text.height() + 4);
    // Straddles the top right corner, like a notification badge.
    return {QPointF(box_.right() - size.width() + 6, box_.top() - size.height() / 2), size};
}

QRectF GraphNodeItem::collectivesRect() const
{
    if (collectives_.isEmpty())
        return {};
    QFont bold = font_;
    bold.setBold(true);
    bold.setPixelSize(std::max(8, font_.pixelSize() - 2));
    const QSizeF text = QFontMetricsF(bold).size(0, collectives_);
    const QSizeF size(text.width() + 8, text.height() + 2);
    // The top left corner, opposite the multiplicity badge.
    return {QPointF(box_.left() - 6, box_.top() - size.height() / 2), size};
}

void GraphNodeItem::setOverlay(QList<QColor> colors, QString collectives, QList<QColor> stages)
{
    prepareGeometryChange();
    overlayColors_ = std::move(colors);
    collectives_ = std::move(collectives);
    stageColors_ = std::move(stages);
    setToolTip({});  // the hover card includes the plan: build it again
    update();
}

QRectF GraphNodeItem::boundingRect() const
{
    const QRectF outline = box_.adjusted(-kOutlineMargin, -kOutlineMargin, kOutlineMargin, kOutlineMargin);
    return outline.united(badgeRect().adjusted(-1, -1, 1, 1)).united(collectivesRect().adjusted(-1, -1, 1, 1));
}

void GraphNodeItem::paintFill(QPainter* painter, bool match, bool selected) const
{
    if (overlayColors_.size() <= 1) {
        const QColor fill = overlayColors_.isEmpty() ? style_.fill : overlayColors_.front();
        painter->setBrush(match && !selected ? fill.lighter(104) : fill);
        painter->drawRoundedRect(box_, kRadius, kRadius);
        return;
    }
    // A folded block holding several strategies: one vertical stripe each.
    const QPen pen = painter->pen();
    QPainterPath clip;
    clip.addRoundedRect(box_, kRadius, kRadius);
    painter->save();
    painter->setClipPath(clip);
    painter->setPen(Qt::NoPen);
    const double width = box_.width() / overlayColors_.size();
    for (int i = 0; i < overlayColors_.size(); ++i) {
        painter->setBrush(overlayColors_[i]);
        painter->drawRect(QRectF(box_.left() + i * width, box_.top(), width + 0.5, box_.height()));
    }
    painter->restore();
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(box_, kRadius, kRadius);
}

void GraphNodeItem::paintStages(QPainter* painter) const
{
    if (stageColors_.isEmpty())
        return;
    QPainterPath clip;
    clip.addRoundedRect(box_, kRadius, kRadius);
    painter->save();
    painter->setClipPath(clip);
    painter->setPen(Qt::NoPen);
    const double width = box_.width() / stageColors_.size();
    const double height = std::min(6.0, box_.height() / 4);
    for (int i = 0; i < stageColors_.size(); ++i) {
        painter->setBrush(stageColors_[i]);
        painter->drawRect(QRectF(box_.left() + i * width, box_.bottom() - height, width + 0.5, height));
    }
    painter->restore();
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    Q_UNUSED(widget);
    painter->setRenderHint(QPainter::Antialiasing);
    const bool selected = option->state.testFlag(QStyle::State_Selected);
    QPen pen(borderColor(), 1);
    if (selected)
        pen = QPen(selectedColor(), 3);
    else if (match_)
        pen = QPen(matchColor(), 3);
    painter->setPen(pen);
    paintFill(painter, match_, selected);
    paintStages(painter);
    if (style_.emphasized) {
        painter->setPen(QPen(selected ? selectedColor() : borderColor(), 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(box_.adjusted(3, 3, -3, -3), kRadius - 2, kRadius - 2);
    }

    // Below a few pixels per line the text is unreadable anyway: skip it when zoomed far out.
    const double scale = option->levelOfDetailFromTransform(painter->worldTransform());
    if (scale * font_.pixelSize() >= 3) {
        painter->setFont(font_);
        painter->setPen(Qt::black);
        painter->drawText(box_, Qt::AlignCenter, style_.label);
    }

    if (!style_.badge.isEmpty()) {
        const QRectF badge = badgeRect();
        painter->setPen(Qt::NoPen);
        painter->setBrush(badgeColor());
        painter->drawRoundedRect(badge, badge.height() / 2, badge.height() / 2);
        QFont bold = font_;
        bold.setBold(true);
        painter->setFont(bold);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, style_.badge);
    }
    if (!collectives_.isEmpty()) {
        const QRectF badge = collectivesRect();
        painter->setPen(Qt::NoPen);
        painter->setBrush(collectivesColor());
        painter->drawRoundedRect(badge, 3, 3);
        QFont bold = font_;
        bold.setBold(true);
        bold.setPixelSize(std::max(8, font_.pixelSize() - 2));
        painter->setFont(bold);
        painter->setPen(Qt::white);
        painter->drawText(badge, Qt::AlignCenter, collectives_);
    }
}

void GraphNodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
    // Details are built on demand: a thousand boxes should not each format a card.
    if (toolTip().isEmpty() && details_)
        setToolTip(details_(index_));
    QGraphicsItem::hoverEnterEvent(event);
}

}  // namespace tapestry
