#include "graphview/GraphViewsPanel.h"

#include "jobs/BackgroundTask.h"
#include "fold/FoldedModel.h"
#include "graphview/GraphViewPane.h"
#include "model/LoadedModel.h"

#include <QtConcurrent/QtConcurrentRun>

namespace tapestry {

GraphViewsPanel::GraphViewsPanel(QWidget* parent) : QTabWidget(parent)
{
    setObjectName(QStringLiteral("graphViews"));
    setDocumentMode(true);
    const std::pair<GraphViewKind, QString> tabs[] = {
        {GraphViewKind::Scope, tr("Original (by scope)")},
        {GraphViewKind::Coarse, tr("Coarse")},
        {GraphViewKind::Folded, tr("Folded")},
    };
    for (const auto& [kind, title] : tabs) {
        auto* pane = new GraphViewPane(kind, this);
        panes_[static_cast<int>(kind)] = pane;
        addTab(pane, title);
        connect(pane, &GraphViewPane::contentShown, this, [this, kind] { emit viewShown(kind); });
        connect(pane, &GraphViewPane::foldedViewRequested, this, [this] { showView(GraphViewKind::Folded); });
    }
    setTabToolTip(static_cast<int>(GraphViewKind::Scope), tr("Every op, grouped by module scope"));
    setTabToolTip(static_cast<int>(GraphViewKind::Coarse), tr("Ops grouped into layer-like nodes"));
    setTabToolTip(static_cast<int>(GraphViewKind::Folded), tr("Repeated blocks drawn once, with their count"));
    setCurrentIndex(static_cast<int>(GraphViewKind::Folded));
    // Lay a tab out when it is first looked at, not all three at once.
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (auto* shown = qobject_cast<GraphViewPane*>(widget(index)))
            shown->activate();
    });
}

GraphViewsPanel::~GraphViewsPanel() = default;

GraphViewPane* GraphViewsPanel::pane(GraphViewKind kind) const
{
    return panes_[static_cast<int>(kind)];
}

GraphViewKind GraphViewsPanel::currentView() const
{
    return static_cast<GraphViewKind>(currentIndex());
}

void GraphViewsPanel::showView(GraphViewKind kind)
{
    setCurrentIndex(static_cast<int>(kind));
}

void GraphViewsPanel::setPlanOverlay(std::shared_ptr<const PlanOverlay> overlay)
{
    for (GraphViewPane* pane : panes_)
        pane->setPlanOverlay(overlay);
}

void GraphViewsPanel::setModel(std::shared_ptr<const LoadedModel> model)
{
    const JobId job = jobs_.start().id;
    model_ = model;
    folded_.reset();
    setPlanOverlay(nullptr);
    if (!model) {
        jobs_.finish(job);
        for (GraphViewPane* pane : panes_)
            pane->setModel(nullptr, nullptr);
        return;
    }
    for (GraphViewPane* pane : panes_)
        pane->showPending(tr("Folding the model…"));
    runInBackground(this, [model]() -> std::pair<std::shared_ptr<const FoldedModel>, QString> {
        try {
            return {std::make_shared<const FoldedModel>(foldModel(model->graph)), {}};
        } catch (const std::exception& exception) {
            return {nullptr, QString::fromLocal8Bit(exception.what())};
        }
    }, [this, job](const std::pair<std::shared_ptr<const FoldedModel>, QString>& result) {
        if (!jobs_.finish(job))
            return;  // a newer model replaced this one
        if (result.first) {
            onFolded(result.first);
            return;
        }
        for (GraphViewPane* pane : panes_)
            pane->showFailure(tr("The model could not be folded: %1").arg(result.second));
        emit viewShown(currentView());
    });
}

void GraphViewsPanel::onFolded(std::shared_ptr<const FoldedModel> folded)
{
    folded_ = std::move(folded);
    for (GraphViewPane* pane : panes_)
        pane->setModel(model_, folded_);
    pane(currentView())->activate();
}

}  // namespace tapestry
