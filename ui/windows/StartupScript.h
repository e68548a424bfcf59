#pragma once

#include "graphview/GraphViewKind.h"
#include "windows/StartupOptions.h"

#include <QObject>

namespace tapestry {

class MainWindow;
class ShardingProblemWindow;

// What the command line asks of the window (StartupOptions) beyond opening a file: the
// cluster panel's cluster, mesh and workload, the graph view shown, a search once the
// model is folded or a plan file opened, an edit of the best plan and a comparison, a
// box selected or a block expanded, the inspector or its pipeline schedule raised, and a screenshot after all that, which quits the application (of a
// sharding problem's window once it is open and, when asked, solved). Drives the
// window through its public interface only.
class StartupScript : public QObject {
    Q_OBJECT

public:
    // Applies the panel settings, the view and the window size to `window` at once.
    StartupScript(MainWindow* window, StartupOptions options);

    // Opens the file the options name (or what the window opens at startup).
    void start();

private:
    void applyClusterOptions();
    void onViewShown(GraphViewKind shown);
    void onSearchFinished();
    void showPlanPanels();
    void onChoicesPriced();
    // With --expand-block in the folded view: opens the first repeated block (the view
    // lays out again and onViewShown follows). False when there is nothing to open.
    bool expandFirstBlock();
    void onProblemOpened(ShardingProblemWindow* problem);
    // Saves the window's picture once it settled and quits with the outcome.
    void grab(bool succeeded);
    // Says why the command line's cluster options were not applied (status bar and
    // stderr), starts no search, and with --screenshot grabs and exits with failure.
    void refuse(const QString& reason);

    MainWindow* window_;
    const StartupOptions options_;
    bool searched_ = false;
    bool refused_ = false;
    bool edited_ = false;
    bool planOpened_ = false;
    bool expanded_ = false;
};

}  // namespace tapestry
