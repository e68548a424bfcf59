#include "ClusterPanel.h"
#include "GraphNodeItem.h"
#include "GraphView.h"
#include "GraphViewPane.h"
#include "GraphViewsPanel.h"
#include "MainWindow.h"
#include "StartupOptions.h"
#include "Translations.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
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
    bool searched = false;
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
