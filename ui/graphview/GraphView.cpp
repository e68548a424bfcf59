#include "graphview/GraphView.h"

#include "graphview/GraphNodeItem.h"
#include "graphview/GraphViewContent.h"

#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

constexpr double kMinScale = 0.02;
constexpr double kMaxScale = 4.0;
// Fitting never enlarges beyond this (a three-box graph should not fill the screen) and
// never shrinks a tall graph below it: then it fits the width and scrolls instead.
constexpr double kMaxFitScale = 1.4;
constexpr double kMinReadableScale = 0.55;
constexpr double kMargin = 16;

QPointF toQt(LayoutPoint p)
{
    return {p.x, p.y};
}

QColor colorOf(const std::string& hex)
{
    const QColor color(QString::fromStdString(hex));
    return color.isValid() ? color : QColor(Qt::white);
}

}  // namespace

QFont GraphView::boxFont()
{
    QFont font;
    font.setPixelSize(11);
    return font;
}

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent)
{
    scene_ = new QGraphicsScene(this);
    setScene(scene_);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setViewportUpdateMode(SmartViewportUpdate);
    setBackgroundBrush(QColor(0xfa, 0xfa, 0xfa));
    setFocusPolicy(Qt::StrongFocus);
    connect(scene_, &QGraphicsScene::selectionChanged, this, [this] { emit selectedNodeChanged(selectedNode()); });
}

GraphView::~GraphView()
{
    // Deleting a selected item changes the selection: no one may hear of it any more.
    disconnect(scene_, nullptr, this, nullptr);
}

void GraphView::clear()
{
    nodes_.clear();
    scene_->clear();
    content_.reset();
}

void GraphView::setContent(std::shared_ptr<const GraphViewContent> content,
                           std::function<QString(std::size_t)> details, std::size_t focus)
{
    const QTransform zoom = transform();
    clear();
    content_ = std::move(content);
    const GraphViewContent& c = *content_;
    const QFont font = boxFont();
    for (std::size_t i = 0; i < c.graph.clusters.size(); ++i) {
        const LayoutBox& box = c.layout.clusters[i];
        addCluster(QRectF(box.left, box.top, box.width, box.height), QString::fromStdString(c.graph.clusters[i].label));
    }
    for (const EdgeRoute& route : c.layout.edges)
        addEdge(route);
    nodes_.reserve(c.graph.nodes.size());
    for (std::size_t i = 0; i < c.graph.nodes.size(); ++i) {
        const LayoutNode& node = c.graph.nodes[i];
        const NodePlacement& place = c.layout.nodes[i];
        const std::size_t multiplicity = c.refs[i].multiplicity;
        GraphNodeItem::Style style{QString::fromStdString(node.label), colorOf(node.fillColor), node.emphasized,
                                   multiplicity > 0 ? QStringLiteral("×%1").arg(multiplicity) : QString()};
        auto* item = new GraphNodeItem(i, QSizeF(place.width, place.height), std::move(style), font, details);
        item->setPos(toQt(place.center));
        scene_->addItem(item);
        nodes_.push_back(item);
    }
    const LayoutBox& bounds = c.layout.bounds;
    scene_->setSceneRect(QRectF(bounds.left, bounds.top, bounds.width, bounds.height)
                             .adjusted(-kMargin, -kMargin, kMargin, kMargin));
    nextMatch_ = 0;
    if (GraphNodeItem* item = nodeItem(focus)) {
        setTransform(zoom);
        autoFit_ = false;
        centerOn(item);
    } else {
        autoFit_ = true;
        fitToView();
    }
}

void GraphView::addCluster(const QRectF& box, const QString& label)
{
    QPainterPath path;
    path.addRoundedRect(box, 8, 8);
    auto* frame = scene_->addPath(path, QPen(QColor(0x88, 0x88, 0x88), 1.2, Qt::DashLine),
                                  QColor(0xf1, 0xf3, 0xf6));
    frame->setZValue(-1);
    auto* text = new QGraphicsSimpleTextItem(label, frame);
    QFont font = boxFont();
    font.setBold(true);
    text->setFont(font);
    text->setBrush(QColor(0x44, 0x44, 0x44));
    text->setPos(box.left() + 8, box.top() + 4);
}

void GraphView::addEdge(const EdgeRoute& route)
{
    if (route.points.empty())
        return;
    QPainterPath path(toQt(route.points.front()));
    for (std::size_t i = 1; i + 2 < route.points.size(); i += 3)
        path.cubicTo(toQt(route.points[i]), toQt(route.points[i + 1]), toQt(route.points[i + 2]));
    const QColor color(0x70, 0x70, 0x70);
    scene_->addPath(path, QPen(color, 1.2))->setZValue(0);
    if (!route.hasArrow)
        return;
    // A filled triangle from the spline's end (the arrow's base) to the tip.
    const QPointF tip = toQt(route.arrowTip);
    const QPointF base = toQt(route.points.back());
    const QLineF axis(tip, base);
    if (axis.length() <= 0)
        return;
    const QPointF normal = QPointF(-axis.dy(), axis.dx()) / axis.length() * (axis.length() * 0.45);
    QPolygonF arrow;
    arrow << tip << base + normal << base - normal;
    scene_->addPolygon(arrow, QPen(color, 1), color)->setZValue(0);
}

GraphNodeItem* GraphView::nodeItem(std::size_t index) const
{
    return index < nodes_.size() ? nodes_[index] : nullptr;
}

const ViewNodeRef* GraphView::nodeRef(std::size_t index) const
{
    return content_ && index < content_->refs.size() ? &content_->refs[index] : nullptr;
}

std::optional<std::size_t> GraphView::selectedNode() const
{
    for (QGraphicsItem* item : scene_->selectedItems()) {
        if (auto* node = dynamic_cast<GraphNodeItem*>(item))
            return node->index();
    }
    return std::nullopt;
}

int GraphView::highlightMatches(const QString& text)
{
    int count = 0;
    const QString needle = text.trimmed();
    for (GraphNodeItem* item : nodes_) {
        bool match = false;
        if (!needle.isEmpty()) {
            const LayoutNode& node = content_->graph.nodes[item->index()];
            match = item->label().contains(needle, Qt::CaseInsensitive) ||
                    QString::fromStdString(node.tooltip).contains(needle, Qt::CaseInsensitive);
        }
        item->setMatch(match);
        count += match ? 1 : 0;
    }
    nextMatch_ = 0;
    return count;
}

int GraphView::highlightWhere(const std::function<bool(const ViewNodeRef&)>& predicate)
{
    int count = 0;
    for (GraphNodeItem* item : nodes_) {
        const bool match = predicate(content_->refs[item->index()]);
        item->setMatch(match);
        count += match ? 1 : 0;
    }
    nextMatch_ = 0;
    return count;
}

void GraphView::showNextMatch()
{
    for (std::size_t step = 0; step < nodes_.size(); ++step) {
        GraphNodeItem* item = nodes_[(nextMatch_ + step) % nodes_.size()];
        if (!item->isMatch())
            continue;
        nextMatch_ = (item->index() + 1) % nodes_.size();
        scene_->clearSelection();
        item->setSelected(true);
        autoFit_ = false;
        centerOn(item);
        return;
    }
}

void GraphView::fitToView()
{
    const QRectF scene = sceneRect();
    if (scene.isEmpty() || viewport()->width() <= 0)
        return;
    const double fitWidth = viewport()->width() / scene.width();
    const double fitAll = std::min(fitWidth, viewport()->height() / scene.height());
    if (fitAll >= kMinReadableScale) {
        const double scale = std::min(fitAll, kMaxFitScale);
        setTransform(QTransform::fromScale(scale, scale));
        centerOn(scene.center());
        return;
    }
    // Too tall (or too big) to read whole: fit the width, as far as text stays
    // readable, and start at the top.
    const double scale = std::min(std::max(fitWidth, kMinReadableScale), kMaxFitScale);
    setTransform(QTransform::fromScale(scale, scale));
    // Horizontally on the first box: where reading starts.
    const auto top = std::min_element(nodes_.begin(), nodes_.end(),
                                      [](const GraphNodeItem* a, const GraphNodeItem* b) { return a->y() < b->y(); });
    const double x = top == nodes_.end() ? scene.center().x() : (*top)->x();
    centerOn(x, scene.top() + viewport()->height() / scale / 2);
}

void GraphView::zoomBy(double factor)
{
    const double current = transform().m11();
    const double target = std::clamp(current * factor, kMinScale, kMaxScale);
    autoFit_ = false;
    scale(target / current, target / current);
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.0015, delta));
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_F && event->modifiers() == Qt::NoModifier) {
        autoFit_ = true;
        fitToView();
        return;
    }
    if (event->matches(QKeySequence::ZoomIn) || (event->key() == Qt::Key_Equal && event->modifiers() == Qt::ControlModifier)) {
        zoomBy(1.25);
        return;
    }
    if (event->matches(QKeySequence::ZoomOut)) {
        zoomBy(0.8);
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

GraphNodeItem* GraphView::nodeAt(const QPoint& viewPos) const
{
    for (QGraphicsItem* item : items(viewPos)) {
        if (auto* node = dynamic_cast<GraphNodeItem*>(item))
            return node;
    }
    return nullptr;
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (GraphNodeItem* node = nodeAt(event->position().toPoint())) {
        emit nodeActivated(node->index());
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event)
{
    if (GraphNodeItem* node = nodeAt(event->pos())) {
        scene_->clearSelection();
        node->setSelected(true);
        emit nodeContextMenuRequested(node->index(), event->globalPos());
        event->accept();
    }
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (autoFit_)
        fitToView();
}

}  // namespace tapestry
