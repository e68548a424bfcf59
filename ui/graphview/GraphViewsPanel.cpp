#include "graphview/GraphViewsPanel.h"

#include "fold/FoldedModel.h"
#include "graphview/GraphViewPane.h"
#include "model/LoadedModel.h"
#include "model/ModelSession.h"
#include "plans/PlanOverlay.h"

#include <QStackedWidget>

namespace tapestry {

GraphViewsPanel::GraphViewsPanel(ModelSession* session, QWidget* parent) : QTabWidget(parent), session_(session)
{
    setObjectName(QStringLiteral("graphViews"));
    setDocumentMode(true);
    const std::pair<GraphViewKind, QString> tabs[] = {
        {GraphViewKind::Scope, tr("Original (by scope)")},
        {GraphViewKind::Coarse, tr("Coarse")},
        {GraphViewKind::Folded, tr("Folded")},
    };
    // Each pane's search and zoom bar sits beside the tabs, not in a row of its own.
    auto* bars = new QStackedWidget(this);
    for (const auto& [kind, title] : tabs) {
        auto* pane = new GraphViewPane(kind, this);
        panes_[static_cast<int>(kind)] = pane;
        addTab(pane, title);
        bars->addWidget(pane->takeBar());
        connect(pane, &GraphViewPane::contentShown, this, [this, kind] { emit viewShown(kind); });
        connect(pane, &GraphViewPane::foldedViewRequested, this, [this] { showView(GraphViewKind::Folded); });
    }
    setTabToolTip(static_cast<int>(GraphViewKind::Scope), tr("Every op, grouped by module scope"));
    setTabToolTip(static_cast<int>(GraphViewKind::Coarse), tr("Ops grouped into layer-like nodes"));
    setTabToolTip(static_cast<int>(GraphViewKind::Folded), tr("Repeated blocks drawn once, with their count"));
    setCornerWidget(bars, Qt::TopRightCorner);
    connect(this, &QTabWidget::currentChanged, bars, &QStackedWidget::setCurrentIndex);
    setCurrentIndex(static_cast<int>(GraphViewKind::Folded));
    bars->setCurrentIndex(currentIndex());
    // Lay a tab out when it is first looked at, not all three at once.
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (auto* shown = qobject_cast<GraphViewPane*>(widget(index)))
            shown->activate();
    });

    connect(session_, &ModelSession::modelChanged, this, [this](const std::shared_ptr<const LoadedModel>& model) {
        for (GraphViewPane* pane : panes_) {
            if (model)
                pane->showPending(tr("Folding the model…"));
            else
                pane->setModel(nullptr, nullptr);
        }
    });
    connect(session_, &ModelSession::foldFinished, this, [this](const std::shared_ptr<const FoldedModel>& folded) {
        for (GraphViewPane* pane : panes_)
            pane->setModel(session_->model(), folded);
        pane(currentView())->activate();
    });
    connect(session_, &ModelSession::foldFailed, this, [this](const QString& reason) {
        for (GraphViewPane* pane : panes_)
            pane->showFailure(tr("The model could not be folded: %1").arg(reason));
        emit viewShown(currentView());
    });
    connect(session_, &ModelSession::currentPlanChanged, this,
            [this](const std::shared_ptr<const PlanCandidate>& candidate) {
                setPlanOverlay(candidate ? std::make_shared<const PlanOverlay>(session_->folded(), candidate) : nullptr);
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

void GraphViewsPanel::setPlanOverlay(const std::shared_ptr<const PlanOverlay>& overlay)
{
    for (GraphViewPane* pane : panes_)
        pane->setPlanOverlay(overlay);
}

}  // namespace tapestry
