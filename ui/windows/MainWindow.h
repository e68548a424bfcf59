#pragma once

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace tapestry {

class ClusterPanel;
struct FoldedModel;
class GraphViewsPanel;
struct LoadedModel;
struct PlanCandidate;
class PlanInspector;
class PlanWorkbench;
struct SearchOutcome;
struct SearchSetup;
class SearchResultsPanel;
class ModelLoader;
class ModelSession;
class ModelSummaryView;
class ScopeTreeModel;
struct ShardingProblem;
class ShardingProblemLoader;
class ShardingProblemWindow;

// The application window: opens ONNX models (menu, recent files, drag and drop, command
// line), imports them in the background and shows the summary and the scope tree beside
// the graph views (by scope, coarse, folded). IOPDDL sharding problems open the same
// ways, each in a ShardingProblemWindow of its own.
// A model that fails to import leaves the previous one on screen.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `commandLinePath` when given; otherwise the most recent file that still
    // exists, else (the very first start) the bundled default model.
    void openAtStartup(const QString& commandLinePath);

    // The model on screen, its fold, the search results and the plan on screen.
    [[nodiscard]] ModelSession* session() const { return session_; }
    [[nodiscard]] bool isLoading() const;
    // The scope, coarse and folded drawings of the model on screen.
    [[nodiscard]] GraphViewsPanel* graphViews() const { return graphViews_; }
    [[nodiscard]] ClusterPanel* clusterPanel() const { return clusterPanel_; }
    [[nodiscard]] SearchResultsPanel* searchResults() const { return resultsPanel_; }
    [[nodiscard]] QDockWidget* resultsDock() const { return resultsDock_; }
    [[nodiscard]] QDockWidget* inspectorDock() const { return inspectorDock_; }
    [[nodiscard]] QDockWidget* clusterDock() const { return clusterDock_; }
    [[nodiscard]] PlanInspector* planInspector() const { return inspector_; }
    // Editing, comparing, history and exports of plans.
    [[nodiscard]] PlanWorkbench* workbench() const { return workbench_; }
    [[nodiscard]] QAction* startSearchAction() const { return startSearch_; }
    [[nodiscard]] QAction* cancelSearchAction() const { return cancelSearch_; }
    [[nodiscard]] bool isSearching() const;
    // Shows and raises the results (false) or the inspector (true) in the bottom dock area.
    void showInspector(bool inspector);

public slots:
    // Starts importing `path` in the background (a sharding problem when
    // ShardingProblemLoader recognizes it, else an ONNX model); File > Open, Open Recent,
    // drops and the command line all end here.
    void openFile(const QString& path);
    // Synthesizes a reference architecture (`layers` > 0 overrides its depth) into the
    // cache folder and opens it.
    void openPreset(const QString& preset, int layers);
    // Searches plans for the folded model on screen with the cluster panel's setup
    // (Search > Start, F5). Reports in the status bar when the model is not folded yet.
    void startSearch();
    void cancelSearch();
    // Shows a plan in the inspector and over the graph views.
    void openCandidate(std::shared_ptr<const tapestry::PlanCandidate> candidate);

signals:
    // An import (of a model or a sharding problem) finished, shown or reported;
    // `succeeded` says which.
    void loadFinished(bool succeeded);
    // A sharding problem was read and its window is shown.
    void problemOpened(tapestry::ShardingProblemWindow* window);
    // A search ended (finished, cancelled or failed), its results are on screen and its
    // best plan is open.
    void searchFinished();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    // Shrinks and moves the window into the screen's free area (a laptop screen, or a
    // geometry saved on a larger screen).
    void fitIntoScreen();
    void createLanguageMenu(QMenu* viewMenu);
    void chooseFile();
    void choosePreset();
    void fillRecentMenu();
    void showAbout();
    void showShortcuts();
    void onLoadStarted(const QString& path);
    void onLoaded(std::shared_ptr<const LoadedModel> model);
    void onProblemLoaded(const QString& path, std::shared_ptr<const ShardingProblem> problem);
    void reportOpenFailure(const QString& title, const QString& path, const QString& problem, const QString& detail);
    void setBusy(bool busy);
    void createDocks();
    // The cluster and workload `candidate` was priced with; null for none.
    [[nodiscard]] std::shared_ptr<const SearchSetup> setupOf(const std::shared_ptr<const PlanCandidate>& candidate) const;
    // The right column's width when the window first shows without a saved layout: 30 %
    // of the window, so that the graph keeps the rest.
    void arrangeDocks();
    // Shows the results and inspector below the graph, 27 % of the window tall when
    // they were hidden.
    void revealPlanDocks();
    void onSearchProgress(const QString& phase, double fraction);
    void onSearchFinished(const std::shared_ptr<const SearchOutcome>& results);
    void onSearchFailed(const QString& problem, const QString& detail);
    void setSearching(bool searching);
    // Closing during a search: asks whether to cancel it; if so, closes once it ended.
    void askToCancelSearchAndClose();

    ModelLoader* loader_ = nullptr;
    ShardingProblemLoader* problemLoader_ = nullptr;
    ModelSession* session_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QSplitter* sideSplitter_ = nullptr;
    GraphViewsPanel* graphViews_ = nullptr;
    ModelSummaryView* summaryView_ = nullptr;
    ScopeTreeModel* scopeModel_ = nullptr;
    QTreeView* scopeView_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QProgressBar* progress_ = nullptr;

    ClusterPanel* clusterPanel_ = nullptr;
    SearchResultsPanel* resultsPanel_ = nullptr;
    PlanInspector* inspector_ = nullptr;
    PlanWorkbench* workbench_ = nullptr;
    QDockWidget* clusterDock_ = nullptr;
    QDockWidget* modelDock_ = nullptr;
    QDockWidget* resultsDock_ = nullptr;
    QDockWidget* inspectorDock_ = nullptr;
    QAction* startSearch_ = nullptr;
    QAction* cancelSearch_ = nullptr;
    QLabel* searchStatus_ = nullptr;
    QProgressBar* searchProgress_ = nullptr;
    // A saved arrangement of the docks was put back: their sizes are the user's.
    bool layoutRestored_ = false;
    bool arranged_ = false;
};

}  // namespace tapestry
