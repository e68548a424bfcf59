#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QList>
#include <QString>

#include <functional>

namespace tapestry {

// One box of a graph view: a rounded rectangle in its kind's colour with its label,
// a double border and a "×N" badge for a folded family, a thicker outline when
// selected or matching the search. The hover card is filled in on first hover.
class GraphNodeItem : public QGraphicsItem {
public:
    struct Style {
        QString label;
        QColor fill;
        bool emphasized = false;
        QString badge;  // "×32"; empty for none
    };

    GraphNodeItem(std::size_t index, QSizeF size, Style style, const QFont& font,
                  std::function<QString(std::size_t)> details);

    [[nodiscard]] std::size_t index() const { return index_; }
    [[nodiscard]] const QString& label() const { return style_.label; }
    [[nodiscard]] const QString& badge() const { return style_.badge; }
    [[nodiscard]] bool isMatch() const { return match_; }
    // A plan drawn over the box: strategy colours (one fills it, several stripe it), the
    // collectives at the node as a second badge and its pipeline stages' colours as a
    // band along the bottom edge. Empty values remove the overlay.
    void setOverlay(QList<QColor> colors, QString collectives, QList<QColor> stages = {});
    [[nodiscard]] const QList<QColor>& overlayColors() const { return overlayColors_; }
    [[nodiscard]] const QList<QColor>& stageColors() const { return stageColors_; }
    [[nodiscard]] const QString& collectives() const { return collectives_; }
    void setMatch(bool match);

    [[nodiscard]] QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;

private:
    [[nodiscard]] QRectF badgeRect() const;
    [[nodiscard]] QRectF collectivesRect() const;
    void paintFill(QPainter* painter, bool match, bool selected) const;
    void paintStages(QPainter* painter) const;

    std::size_t index_;
    QRectF box_;
    Style style_;
    QFont font_;
    std::function<QString(std::size_t)> details_;
    bool match_ = false;
    QList<QColor> overlayColors_;
    QList<QColor> stageColors_;
    QString collectives_;
};

}  // namespace tapestry
