#include "windows/StartupScript.h"

#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewsPanel.h"
#include "history/HistoryPanel.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanEditor.h"
#include "plans/PlanInspector.h"
#include "charts/PipelineTimeline.h"
#include "plans/PlanWorkbench.h"
#include "plans/StrategyChoicesModel.h"
#include "search/ClusterPanel.h"
#include "search/PlanCandidate.h"
#include "search/StrategyChoices.h"
#include "sharding/ShardingProblemWindow.h"
#include "windows/MainWindow.h"

#include <QComboBox>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QScrollBar>
#include <QSpinBox>
#include <QGraphicsView>
#include <QTabWidget>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>

namespace tapestry {

namespace {

// The fastest strategy other than the current one that still fits in `hbmBytes`, else
// the first other one; -1 when there is no other.
int pickChoice(const StrategyChoices& choices, double hbmBytes)
{
    int pick = -1;
    for (std::size_t row = 0; row < choices.choices.size(); ++row) {
        const StrategyChoices::Choice& choice = choices.choices[row];
        if (choice.current)
            continue;
        const StrategyChoices::Choice* best = pick < 0 ? nullptr : &choices.choices[static_cast<std::size_t>(pick)];
        const bool better = !best || (choice.memoryBytes <= hbmBytes &&
                                      (best->memoryBytes > hbmBytes || choice.stepSeconds < best->stepSeconds));
        if (better)
            pick = static_cast<int>(row);
    }
    return pick;
}

}  // namespace

StartupScript::StartupScript(MainWindow* window, StartupOptions options)
    : QObject(window), window_(window), options_(std::move(options))
{
    window_->graphViews()->showView(options_.view);
    if (options_.windowSize.isValid())
        window_->resize(options_.windowSize);

    // A failed import grabs (and quits) at once; after a model's import the command
    // line's cluster and workload replace what the window remembered for that model.
    connect(window_, &MainWindow::loadFinished, this, [this](bool succeeded) {
        if (succeeded)
            applyClusterOptions();
        else
            grab(false);
    });
    connect(window_, &MainWindow::problemOpened, this, &StartupScript::onProblemOpened);
    connect(window_->graphViews(), &GraphViewsPanel::viewShown, this, &StartupScript::onViewShown);
    connect(window_, &MainWindow::searchFinished, this, &StartupScript::onSearchFinished);
    connect(window_->workbench()->editPanel(), &PlanEditPanel::choicesPriced, this, &StartupScript::onChoicesPriced);
}

void StartupScript::applyClusterOptions()
{
    ClusterPanel* cluster = window_->clusterPanel();
    // A cluster or mesh the panel cannot take would search and show another one than asked.
    if (!options_.cluster.isEmpty() && !cluster->choosePreset(options_.cluster))
        return refuse(tr("Unknown cluster preset '%1': no search was started.").arg(options_.cluster));
    if (options_.nodes > 0)
        cluster->setNodes(options_.nodes);
    if (!options_.mesh.isEmpty() && !cluster->chooseMeshText(options_.mesh))
        return refuse(tr("The mesh %1 does not fit the cluster's GPUs: no search was started.").arg(options_.mesh));
    if (options_.batch > 0)
        cluster->setBatch(options_.batch);
    if (options_.sequence > 0)
        cluster->setSequence(options_.sequence);
    if (options_.microBatch > 0)
        cluster->setMicroBatch(options_.microBatch);
    if (!options_.target.isEmpty()) {
        auto* target = cluster->findChild<QComboBox*>(QStringLiteral("target"));
        target->setCurrentIndex(target->findData(options_.target));
    }
}

void StartupScript::refuse(const QString& reason)
{
    refused_ = true;
    window_->statusBar()->showMessage(reason);
    qWarning("%s", qPrintable(reason));
    grab(false);
}

void StartupScript::start()
{
    window_->openAtStartup(options_.modelPath);
}

void StartupScript::onViewShown(GraphViewKind shown)
{
    if (shown != options_.view || refused_)
        return;
    if (!options_.planPath.isEmpty() && !planOpened_) {
        planOpened_ = true;
        window_->workbench()->openPlanFile(options_.planPath);
        showPlanPanels();
        if (!expandFirstBlock())
            grab(true);
        return;
    }
    if (options_.search && !searched_) {
        searched_ = true;
        window_->startSearch();
        return;
    }
    if (!options_.search || !window_->isSearching())
        grab(true);
}

void StartupScript::showPlanPanels()
{
    window_->showInspector(options_.showInspector);
    if (options_.showHistory) {
        for (QWidget* dock = window_->workbench()->historyPanel(); dock; dock = dock->parentWidget()) {
            if (auto* found = qobject_cast<QDockWidget*>(dock)) {
                found->raise();
                break;
            }
        }
    }
    // The docks keep the window's own arrangement; a schedule needs a row per stage.
    if (options_.showTimeline && options_.windowSize.isValid())
        window_->resizeDocks({window_->inspectorDock()}, {options_.windowSize.height() * 3 / 5}, Qt::Vertical);
    if (options_.showTraffic)
        window_->planInspector()->tabs()->setCurrentWidget(window_->planInspector()->trafficPane());
    if (options_.showTimeline) {
        PipelineTimeline* timeline = window_->planInspector()->timeline();
        window_->planInspector()->tabs()->setCurrentWidget(timeline);
        // Once the docks have their sizes (the timeline fits itself to its width).
        QTimer::singleShot(200, timeline, [timeline, zoom = options_.timelineZoom] {
            if (zoom > 1) {
                timeline->zoomBy(zoom);
                timeline->view()->horizontalScrollBar()->setValue(0);
            }
        });
    }
}

void StartupScript::onSearchFinished()
{
    showPlanPanels();
    if (options_.showExport) {
        window_->workbench()->exportAction()->trigger();
        // The dialog is a window of its own, over the main one: the picture is the screen.
        QTimer::singleShot(800, this, [this] {
            const bool saved = QGuiApplication::primaryScreen()->grabWindow(0).save(options_.screenshotPath);
            QApplication::exit(saved ? 0 : 1);
        });
        return;
    }
    if (!options_.edit.isEmpty()) {
        for (const EditTarget& target : window_->workbench()->editor()->targets()) {
            const QString name = QString::fromStdString(target.name);
            if (name.contains(options_.edit) && window_->workbench()->editPanel()->selectTarget(name))
                return;  // onChoicesPriced applies the edit and grabs
        }
        qWarning("no edit target contains %s", qPrintable(options_.edit));
    }
    if (!expandFirstBlock())
        grab(true);
}

bool StartupScript::expandFirstBlock()
{
    if (!options_.expandBlock || options_.view != GraphViewKind::Folded || expanded_)
        return false;
    expanded_ = true;
    // The repeated block is the box with a multiplicity badge; opening it lays out again.
    GraphViewPane* folded = window_->graphViews()->pane(GraphViewKind::Folded);
    for (const GraphNodeItem* item : folded->view()->nodeItems()) {
        if (!item->badge().isEmpty()) {
            folded->toggle(item->index());
            return true;  // onViewShown grabs when the new layout is on screen
        }
    }
    return false;
}

void StartupScript::onChoicesPriced()
{
    PlanEditor* editor = window_->workbench()->editor();
    const std::shared_ptr<const StrategyChoices> choices = window_->workbench()->editPanel()->choicesModel()->choices();
    if (options_.edit.isEmpty() || edited_ || !editor->current().candidate || !choices ||
        !QString::fromStdString(choices->target.name).contains(options_.edit))
        return;
    edited_ = true;
    const int pick = pickChoice(*choices, editor->current().candidate->evaluation.hbmBytes);
    if (pick >= 0)
        editor->setStrategy(choices->target, choices->choices[static_cast<std::size_t>(pick)].strategy);
    if (options_.showCompare)
        window_->workbench()->compareAction()->trigger();
    QTimer::singleShot(1500, this, [this] { grab(true); });  // the compare drawings lay out
}

void StartupScript::onProblemOpened(ShardingProblemWindow* problem)
{
    if (options_.windowSize.isValid())
        problem->resize(options_.windowSize);
    const auto grabProblem = [this, problem] {
        if (options_.screenshotPath.isEmpty())
            return;
        QTimer::singleShot(500, problem, [this, problem] {
            QApplication::exit(problem->grab().save(options_.screenshotPath) ? 0 : 1);
        });
    };
    if (options_.solveSeconds == 0) {
        grabProblem();
        return;
    }
    connect(problem, &ShardingProblemWindow::solveFinished, this, grabProblem);
    problem->timeLimitBox()->setValue(options_.solveSeconds);
    problem->startSolve();
}

void StartupScript::grab(bool succeeded)
{
    if (options_.screenshotPath.isEmpty())
        return;
    if (!options_.select.isEmpty()) {
        GraphView* view = window_->graphViews()->pane(options_.view)->view();
        if (view->highlightMatches(options_.select) > 0)
            view->showNextMatch();  // selects it: the details panel shows its card
    }
    QTimer::singleShot(500, this, [this, succeeded] {
        const bool saved = window_->grab().save(options_.screenshotPath);
        QApplication::exit(succeeded && saved ? 0 : 1);
    });
}

}  // namespace tapestry
