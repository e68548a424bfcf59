#pragma once

#include <QWidget>

class QLabel;

namespace tapestry {

// A key under a graph view: a colour swatch and a name per kind of box, wrapped onto
// as many lines as the width needs.
class GraphLegend : public QWidget {
    Q_OBJECT

public:
    struct Entry {
        QColor color;
        QString text;
        bool emphasized = false;  // double border, like a folded family
    };

    explicit GraphLegend(QWidget* parent = nullptr);
    void setEntries(const QList<Entry>& entries);

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // Places the items for `width` when `apply`; returns the height they take.
    int arrange(int width, bool apply) const;

    QList<QPair<QLabel*, QLabel*>> items_;  // swatch, name
};

}  // namespace tapestry
