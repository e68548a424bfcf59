#include "graphview/GraphViewPane.h"

#include "common/ElidedLabel.h"

#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "common/ErrorText.h"
#include "fold/FoldedModel.h"
#include "model/LoadedModel.h"
#include "graphview/GraphLegend.h"
#include "graphview/GraphNodeDetails.h"
#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewContent.h"
#include "graphview/GraphViewPicture.h"
#include "plans/PlanOverlay.h"
#include "base/Error.h"
#include "layout/FoldViews.h"
#include "layout/GraphvizLayout.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QMessageBox>

#include <algorithm>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tapestry {

namespace {

QColor color(const char* hex)
{
    return QColor(QLatin1String(hex));
}

QList<GraphLegend::Entry> kindEntries()
{
    return {
        {color(kindColor(CoarseNodeKind::Embedding)), GraphViewPane::tr("Embedding"), false},
        {color(kindColor(CoarseNodeKind::Linear)), GraphViewPane::tr("Linear"), false},
        {color(kindColor(CoarseNodeKind::Conv)), GraphViewPane::tr("Convolution"), false},
        {color(kindColor(CoarseNodeKind::BatchedMatMul)), GraphViewPane::tr("Batched MatMul"), false},
        {color(kindColor(CoarseNodeKind::Normalization)), GraphViewPane::tr("Normalization"), false},
        {color(kindColor(CoarseNodeKind::Elementwise)), GraphViewPane::tr("Elementwise"), false},
    };
}

}  // namespace

GraphViewPane::GraphViewPane(GraphViewKind kind, QWidget* parent) : QWidget(parent), kind_(kind)
{
    search_ = new QLineEdit(this);
    search_->setObjectName(QStringLiteral("graphSearch"));
    search_->setPlaceholderText(tr("Search by name…"));
    search_->setClearButtonEnabled(true);
    search_->setMaximumWidth(280);
    search_->setToolTip(tr("Highlights matching boxes; Enter shows the next one."));
    matches_ = new QLabel(this);
    // Room for "18 boxes, laid out in 120 ms"; on a narrow pane (a laptop in German, the
    // compared plans) it is cut.
    status_ = new ElidedLabel(30, 22, this);
    status_->setObjectName(QStringLiteral("graphStatus"));
    status_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0);
    busy_->setMaximumWidth(100);
    busy_->setTextVisible(false);
    busy_->hide();

    view_ = new GraphView(this);
    auto* zoomOut = new QToolButton(this);
    zoomOut->setText(QStringLiteral("−"));
    zoomOut->setToolTip(tr("Zoom out (Ctrl+-)"));
    auto* zoomIn = new QToolButton(this);
    zoomIn->setText(QStringLiteral("+"));
    zoomIn->setToolTip(tr("Zoom in (Ctrl+=)"));
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Fit the graph to the view (F)"));
    auto* save = new QToolButton(this);
    save->setObjectName(QStringLiteral("graphSave"));
    save->setText(tr("Save…"));
    save->setToolTip(tr("Save the drawing as SVG or PNG"));

    bar_ = new QWidget(this);
    auto* bar = new QHBoxLayout(bar_);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(search_);
    bar->addWidget(matches_);
    bar->addWidget(status_, 1);
    bar->addWidget(busy_);
    bar->addSpacing(8);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(fit);
    bar->addWidget(save);

    details_ = new QTextBrowser(this);
    details_->setObjectName(QStringLiteral("graphDetails"));
    // Hidden until a box is selected: the drawing keeps the pane's whole width.
    details_->hide();
    view_->setToolTip(tr("Select a box to see its details. Double-click to expand or collapse it."));
    // Narrower than a long word, a card breaks inside words ("Strateg y").
    details_->setMinimumWidth(details_->fontMetrics().averageCharWidth() * 18);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({800, 220});
    split->setChildrenCollapsible(false);

    auto* messagePage = new QWidget(this);
    message_ = new QLabel(messagePage);
    message_->setObjectName(QStringLiteral("graphMessage"));
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    showFolded_ = new QPushButton(tr("Show Folded View"), messagePage);
    auto* messageLayout = new QVBoxLayout(messagePage);
    messageLayout->addStretch(1);
    messageLayout->addWidget(message_);
    messageLayout->addWidget(showFolded_, 0, Qt::AlignHCenter);
    messageLayout->addStretch(2);

    pages_ = new QStackedWidget(this);
    pages_->addWidget(split);
    pages_->addWidget(messagePage);

    legend_ = new GraphLegend(this);
    updateLegend();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);  // the drawing reaches the pane's edges
    layout->setSpacing(2);
    layout->addWidget(bar_);
    layout->addWidget(pages_, 1);
    layout->addWidget(legend_);

    connect(search_, &QLineEdit::textChanged, this, &GraphViewPane::search);
    connect(search_, &QLineEdit::returnPressed, view_, &GraphView::showNextMatch);
    connect(zoomIn, &QToolButton::clicked, view_, [this] { view_->zoomBy(1.25); });
    connect(zoomOut, &QToolButton::clicked, view_, [this] { view_->zoomBy(0.8); });
    connect(fit, &QToolButton::clicked, view_, &GraphView::fitToView);
    connect(save, &QToolButton::clicked, this, &GraphViewPane::saveAs);
    connect(view_, &GraphView::nodeActivated, this, &GraphViewPane::toggle);
    connect(view_, &GraphView::selectedNodeChanged, this, &GraphViewPane::showDetails);
    connect(view_, &GraphView::nodeContextMenuRequested, this, &GraphViewPane::showContextMenu);
    connect(showFolded_, &QPushButton::clicked, this, &GraphViewPane::foldedViewRequested);
}

GraphViewPane::~GraphViewPane() = default;

void GraphViewPane::saveAs()
{
    if (view_->nodeItems().empty())
        return;
    const QString file = QFileDialog::getSaveFileName(this, tr("Save View"), QDir::homePath(),
                                                      tr("SVG pictures (*.svg);;PNG pictures (*.png)"));
    if (!file.isEmpty() && !saveScenePicture(*view_->scene(), file))
        QMessageBox::warning(this, tr("Could Not Save View"),
                             tr("Could not write %1.").arg(QDir::toNativeSeparators(file)));
}

void GraphViewPane::updateLegend()
{
    QList<GraphLegend::Entry> entries;
    if (kind_ == GraphViewKind::Folded)
        entries << GraphLegend::Entry{color(kFamilyColor), tr("Repeated block (×N)"), true};
    if (overlay_)
        entries << PlanOverlay::legend() << overlay_->stageLegend();
    else if (kind_ != GraphViewKind::Scope)
        entries << kindEntries();
    legend_->setEntries(entries);
    legend_->setVisible(legendShown_ && !entries.isEmpty());
}

QWidget* GraphViewPane::takeBar()
{
    layout()->removeWidget(bar_);
    return bar_;
}

void GraphViewPane::setLegendShown(bool shown)
{
    legendShown_ = shown;
    updateLegend();
}

void GraphViewPane::setCompactBar()
{
    search_->hide();
    matches_->hide();
    status_->hide();
    qobject_cast<QHBoxLayout*>(bar_->layout())->insertStretch(0, 1);
}

void GraphViewPane::setPlanOverlay(std::shared_ptr<const PlanOverlay> overlay)
{
    if (kind_ == GraphViewKind::Scope)
        return;  // op-level boxes: a plan decides coarse nodes
    overlay_ = std::move(overlay);
    updateLegend();
    applyOverlay();
    if (const std::optional<std::size_t> selected = view_->selectedNode())
        showDetails(selected);
}

void GraphViewPane::applyOverlay()
{
    if (!content_)
        return;
    for (GraphNodeItem* item : view_->nodeItems()) {
        const ViewNodeRef& ref = content_->refs[item->index()];
        if (overlay_)
            item->setOverlay(overlay_->colors(ref), overlay_->badge(ref), overlay_->stageColors(ref));
        else
            item->setOverlay({}, {});
    }
}

QString GraphViewPane::detailsHtml(std::size_t index) const
{
    if (!content_ || !folded_ || index >= content_->refs.size())
        return {};
    const ViewNodeRef& ref = content_->refs[index];
    const QString html = GraphNodeDetails::html(*model_, *folded_, ref);
    // The plan first: it is what the user is inspecting.
    const QString plan = overlay_ ? overlay_->html(ref) : QString();
    return plan.isEmpty() ? html : plan + QStringLiteral("<hr>") + html;
}

void GraphViewPane::showPending(const QString& message)
{
    setModel(nullptr, nullptr);
    setStatus(message, true);
}

void GraphViewPane::showFailure(const QString& message)
{
    setModel(nullptr, nullptr);
    showMessage(message, false);
}

void GraphViewPane::setModel(std::shared_ptr<const LoadedModel> model, std::shared_ptr<const FoldedModel> folded)
{
    model_ = folded ? std::move(model) : nullptr;
    folded_ = model_ ? std::move(folded) : nullptr;
    expanded_.clear();
    content_.reset();
    view_->clear();
    details_->clear();
    matches_->clear();
    laidOut_ = false;
    shown_ = false;
    if (kind_ == GraphViewKind::Scope && folded_) {
        // A view of one or two boxes ("model", "lm_head") says nothing: open the largest.
        const ScopeTree& scopes = model_->scopes;
        const ScopeNode& root = scopes.node(scopes.root());
        const auto largest = std::max_element(root.children.begin(), root.children.end(), [&](ScopeNodeId a, ScopeNodeId b) {
            return scopes.node(a).totalOpCount < scopes.node(b).totalOpCount;
        });
        if (root.children.size() + root.ops.size() < 4 && largest != root.children.end())
            expanded_.insert(largest->index());
    }
    jobs_.discard();  // results of jobs for the previous model are dropped
    pages_->setCurrentIndex(0);
    setStatus({}, false);
}

void GraphViewPane::activate()
{
    if (!folded_ || laidOut_)
        return;
    laidOut_ = true;
    if (kind_ == GraphViewKind::Coarse && folded_->coarse.nodes.size() > kMaxLaidOutNodes) {
        const int count = static_cast<int>(folded_->coarse.nodes.size());
        showMessage(tr("The coarse graph has %L1 nodes: too many to lay out as a readable drawing. "
                       "The folded view shows the same graph with each repeated block drawn once.")
                        .arg(count),
                    true);
        setStatus(tr("%L1 coarse nodes").arg(count), false);
        shown_ = true;
        emit contentShown();
        return;
    }
    startLayout({});
}

void GraphViewPane::toggle(std::size_t index)
{
    if (!content_ || index >= content_->refs.size() || kind_ == GraphViewKind::Coarse)
        return;
    const ViewNodeRef ref = content_->refs[index];
    const bool expandable = ref.kind == ViewNodeRef::Kind::Family || ref.kind == ViewNodeRef::Kind::Scope;
    if (expandable) {
        expanded_.insert(ref.index);
        // Keep the first box of the opened block in view.
        startLayout([opened = ref.index](const ViewNodeRef& r) { return r.collapses == opened; });
    } else if (ref.collapses != ViewNodeRef::kNone) {
        expanded_.erase(ref.collapses);
        const ViewNodeRef::Kind boxKind =
            kind_ == GraphViewKind::Folded ? ViewNodeRef::Kind::Family : ViewNodeRef::Kind::Scope;
        startLayout([closed = ref.collapses, boxKind](const ViewNodeRef& r) {
            return r.kind == boxKind && r.index == closed;
        });
    }
}

QString GraphViewPane::toggleText(std::size_t index) const
{
    const ViewNodeRef& ref = content_->refs[index];
    if (ref.kind == ViewNodeRef::Kind::Family || ref.kind == ViewNodeRef::Kind::Scope)
        return tr("Expand");
    if (ref.collapses != ViewNodeRef::kNone)
        return kind_ == GraphViewKind::Folded ? tr("Collapse Block") : tr("Collapse Scope");
    return {};
}

void GraphViewPane::showContextMenu(std::size_t index, const QPoint& globalPos)
{
    if (!content_ || kind_ == GraphViewKind::Coarse)
        return;
    const QString text = toggleText(index);
    if (text.isEmpty())
        return;
    QMenu menu(this);
    menu.addAction(text, this, [this, index] { toggle(index); });
    menu.exec(globalPos);
}

void GraphViewPane::startLayout(std::function<bool(const ViewNodeRef&)> focus)
{
    auto content = std::make_shared<GraphViewContent>(
        GraphViewContent::build(kind_, *model_, *folded_, expanded_, GraphView::boxFont()));
    const int count = static_cast<int>(content->graph.nodes.size());
    const JobId job = jobs_.start().id;
    setStatus(tr("Laying out %L1 nodes…").arg(count), true);
    // The content is laid out in place; the job hands back how long that took.
    using Outcome = JobOutcome<qint64>;
    runInBackground(this, [content] {
        return Outcome::catching([&] {
            QElapsedTimer timer;
            timer.start();
            content->layout = layOut(content->graph);
            return timer.elapsed();
        });
    }, [this, job, count, content, focus = std::move(focus)](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // superseded: another expansion or another model
        if (!outcome.value) {
            showMessage(tr("The graph could not be laid out: %1\n%2")
                            .arg(outcome.error ? ErrorText::problem(*outcome.error) : outcome.unexpected,
                                 outcome.error ? ErrorText::detail(*outcome.error) : QString()),
                        false);
            setStatus({}, false);
        } else {
            content_ = content;
            std::size_t focusIndex = ViewNodeRef::kNone;
            for (std::size_t i = 0; focus && i < content_->refs.size(); ++i) {
                if (focus(content_->refs[i])) {
                    focusIndex = i;
                    break;
                }
            }
            // The items belong to the view, a child of this pane: `this` outlives them.
            view_->setContent(content_, [this](std::size_t i) { return detailsHtml(i); }, focusIndex);
            applyOverlay();
            pages_->setCurrentIndex(0);
            search();
            details_->clear();
            setStatus(tr("%L1 boxes, laid out in %L2 ms").arg(count).arg(*outcome.value), false);
        }
        shown_ = true;
        emit contentShown();
    });
}

void GraphViewPane::showMessage(const QString& text, bool offerFoldedView)
{
    message_->setText(text);
    showFolded_->setVisible(offerFoldedView);
    pages_->setCurrentIndex(1);
}

void GraphViewPane::setStatus(const QString& text, bool busy)
{
    status_->setFullText(text);
    busy_->setVisible(busy);
}

void GraphViewPane::showDetails(std::optional<std::size_t> index)
{
    if (!index || !content_ || !folded_) {
        details_->clear();
        details_->hide();
        return;
    }
    details_->setHtml(detailsHtml(*index));
    details_->show();
}

void GraphViewPane::search()
{
    const QString text = search_->text();
    const int count = view_->highlightMatches(text);
    if (text.trimmed().isEmpty())
        matches_->clear();
    else
        matches_->setText(count == 1 ? tr("1 match") : tr("%L1 matches").arg(count));
}

}  // namespace tapestry
