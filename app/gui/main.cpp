#include "search/ClusterPanel.h"
#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewsPanel.h"
#include "windows/MainWindow.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanEditor.h"
#include "plans/PlanWorkbench.h"
#include "search/SearchOutcome.h"
#include "sharding/ShardingProblemWindow.h"
#include "plans/StrategyChoicesModel.h"
#include "windows/StartupOptions.h"
#include "common/Translations.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationVersion(QStringLiteral(TAPESTRY_VERSION));
    tapestry::Translations::install(app);
    const tapestry::StartupOptions options = tapestry::StartupOptions::parse(app);

    tapestry::MainWindow window;
    window.graphViews()->showView(options.view);
    tapestry::ClusterPanel* cluster = window.clusterPanel();
    if (!options.cluster.isEmpty() && !cluster->choosePreset(options.cluster))
        qWarning("unknown cluster preset %s", qPrintable(options.cluster));
    if (!options.mesh.empty() && !cluster->chooseMesh(options.mesh))
        qWarning("mesh %s does not fit the cluster", qPrintable(cluster->meshBox()->currentText()));
    if (options.batch > 0)
        cluster->setBatch(options.batch);
    if (options.sequence > 0)
        cluster->setSequence(options.sequence);

    // Grab once the model is imported and the chosen graph view is drawn (and, with
    // --search, the search has finished), then quit with the outcome; a failed import
    // quits at once.
    const auto grab = [&](bool succeeded) {
        if (options.screenshotPath.isEmpty())
            return;
        if (!options.select.isEmpty()) {
            tapestry::GraphView* view = window.graphViews()->pane(options.view)->view();
            if (view->highlightMatches(options.select) > 0)
                view->showNextMatch();  // selects it: the details panel shows its card
        }
        QTimer::singleShot(500, &window, [&, succeeded] {
            const bool saved = window.grab().save(options.screenshotPath);
            QApplication::exit(succeeded && saved ? 0 : 1);
        });
    };
    QObject::connect(&window, &tapestry::MainWindow::loadFinished, &window, [grab](bool succeeded) {
        if (!succeeded)
            grab(false);
    });
    // A sharding problem opens in a window of its own: grab that one, after a solve of
    // --solve-seconds when asked.
    QObject::connect(&window, &tapestry::MainWindow::problemOpened, &window,
                     [&options](tapestry::ShardingProblemWindow* problem) {
                         if (options.windowSize.isValid())
                             problem->resize(options.windowSize);
                         const auto grabProblem = [&options, problem] {
                             if (options.screenshotPath.isEmpty())
                                 return;
                             QTimer::singleShot(500, problem, [&options, problem] {
                                 QApplication::exit(problem->grab().save(options.screenshotPath) ? 0 : 1);
                             });
                         };
                         if (options.solveSeconds == 0) {
                             grabProblem();
                             return;
                         }
                         QObject::connect(problem, &tapestry::ShardingProblemWindow::solveFinished, problem, grabProblem);
                         problem->timeLimitBox()->setValue(options.solveSeconds);
                         problem->startSolve();
                     });
    bool searched = false;
    // --edit: once the search's best plan is in the editor, pick the target, apply its
    // first other strategy when the choices are priced, then grab (comparing first).
    bool edited = false;
    tapestry::PlanEditPanel* editPanel = window.workbench()->editPanel();
    QObject::connect(editPanel, &tapestry::PlanEditPanel::choicesPriced, &window, [&, grab, editPanel] {
        if (options.edit.isEmpty() || edited || !window.workbench()->editor()->current().candidate)
            return;
        const auto* choices = editPanel->choicesModel()->choices().get();
        if (!QString::fromStdString(choices->target.name).contains(options.edit))
            return;
        edited = true;
        // The fastest other strategy that still fits in memory, else the first other one.
        const double hbm = window.workbench()->editor()->current().candidate->evaluation.hbmBytes;
        int pick = -1;
        for (std::size_t row = 0; row < choices->choices.size(); ++row) {
            const auto& choice = choices->choices[row];
            if (choice.current)
                continue;
            const bool better = pick < 0 || (choice.memoryBytes <= hbm &&
                                             (choices->choices[static_cast<std::size_t>(pick)].memoryBytes > hbm ||
                                              choice.stepSeconds < choices->choices[static_cast<std::size_t>(pick)].stepSeconds));
            if (better)
                pick = static_cast<int>(row);
        }
        editPanel->choicesView()->selectRow(pick);
        editPanel->applyButton()->click();
        if (options.showCompare)
            window.workbench()->compareAction()->trigger();
        QTimer::singleShot(1500, &window, [grab] { grab(true); });  // the compare drawings lay out
    });
    QObject::connect(window.graphViews(), &tapestry::GraphViewsPanel::viewShown, &window,
                     [&, grab](tapestry::GraphViewKind shown) {
                         if (shown != options.view)
                             return;
                         if (options.search && !searched) {
                             searched = true;
                             window.startSearch();
                             return;
                         }
                         if (!options.search || !window.isSearching())
                             grab(true);
                     });
    QObject::connect(&window, &tapestry::MainWindow::searchFinished, &window, [&, grab] {
        window.showInspector(options.showInspector);
        if (!options.edit.isEmpty()) {
            // The editor's table needs room for its strategy and cost columns.
            if (auto* editDock = window.findChild<QDockWidget*>(QStringLiteral("editDock")))
                window.resizeDocks({editDock}, {options.windowSize.isValid() ? options.windowSize.width() * 2 / 5 : 600},
                                   Qt::Horizontal);
            for (int i = 0; i < editPanel->targetBox()->count(); ++i) {
                if (editPanel->targetBox()->itemText(i).contains(options.edit)) {
                    editPanel->targetBox()->setCurrentIndex(i);
                    return;  // choicesPriced applies the edit and grabs
                }
            }
            qWarning("no edit target contains %s", qPrintable(options.edit));
        }
        if (options.windowSize.isValid()) {
            // The results and inspector share the bottom: give them room for their charts.
            if (auto* results = window.findChild<QDockWidget*>(QStringLiteral("resultsDock")))
                window.resizeDocks({results}, {options.windowSize.height() / 2}, Qt::Vertical);
        }
        tapestry::GraphViewPane* folded = window.graphViews()->pane(tapestry::GraphViewKind::Folded);
        if (options.expandBlock && options.view == tapestry::GraphViewKind::Folded) {
            // The repeated block is the box with a multiplicity badge; opening it lays out again.
            for (const auto* item : folded->view()->nodeItems()) {
                if (!item->badge().isEmpty()) {
                    folded->toggle(item->index());
                    return;  // viewShown grabs when the new layout is on screen
                }
            }
        }
        grab(true);
    });
    if (options.windowSize.isValid())
        window.resize(options.windowSize);
    window.show();
    window.openAtStartup(options.modelPath);
    return QApplication::exec();
}
