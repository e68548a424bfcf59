#pragma once

#include <QGraphicsView>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tapestry {

class GraphNodeItem;
struct EdgeRoute;
struct GraphViewContent;
struct ViewNodeRef;

// Draws a laid-out graph view as interactive items: boxes, cluster frames with labels,
// edges with arrow heads. Wheel or Ctrl+= / Ctrl+- zoom, dragging the background pans,
// F fits. A click selects a box; a double-click or the context menu asks the owner to
// expand or collapse it (the view itself never changes the graph).
class GraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // The label font, in scene units (points): what boxes are sized for before layout.
    [[nodiscard]] static QFont boxFont();

    // Replaces the drawing. `details` gives the hover card of box i. When `focus` names
    // a box, the view keeps its zoom and centres on it; otherwise it fits.
    void setContent(std::shared_ptr<const GraphViewContent> content, std::function<QString(std::size_t)> details,
                    std::size_t focus);
    void clear();

    [[nodiscard]] const std::vector<GraphNodeItem*>& nodeItems() const { return nodes_; }
    [[nodiscard]] GraphNodeItem* nodeItem(std::size_t index) const;
    // What box `index` stands for; null when there is no such box.
    [[nodiscard]] const ViewNodeRef* nodeRef(std::size_t index) const;
    // Index of the selected box, or none.
    [[nodiscard]] std::optional<std::size_t> selectedNode() const;

    // Highlights the boxes whose label or name contains `text` (case-insensitive);
    // returns how many match. An empty text clears the highlight.
    int highlightMatches(const QString& text);
    // Highlights the boxes whose reference satisfies `predicate` (the nodes that differ
    // between two plans); returns how many. Like a search match, until the next one.
    int highlightWhere(const std::function<bool(const ViewNodeRef&)>& predicate);
    // Selects and centres on the next highlighted box, in graph order, wrapping around.
    void showNextMatch();

    // The whole drawing in view; a tall one is fitted to the width and shown from the top.
    void fitToView();
    void zoomBy(double factor);

signals:
    void nodeActivated(std::size_t index);
    void nodeContextMenuRequested(std::size_t index, const QPoint& globalPos);
    void selectedNodeChanged(std::optional<std::size_t> index);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    [[nodiscard]] GraphNodeItem* nodeAt(const QPoint& viewPos) const;
    void addCluster(const QRectF& box, const QString& label);
    void addEdge(const EdgeRoute& route);

    QGraphicsScene* scene_ = nullptr;
    std::shared_ptr<const GraphViewContent> content_;
    std::vector<GraphNodeItem*> nodes_;
    std::size_t nextMatch_ = 0;
    bool autoFit_ = true;  // refit on resize until the user zooms or pans
};

}  // namespace tapestry
