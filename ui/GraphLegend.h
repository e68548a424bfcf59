#pragma once

#include <QWidget>

class QHBoxLayout;

namespace tapestry {

// A one-line key under a graph view: a colour swatch and a name per kind of box.
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

private:
    QHBoxLayout* layout_ = nullptr;
};

}  // namespace tapestry
