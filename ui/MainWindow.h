#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace tapestry {

class GraphViewsPanel;
struct LoadedModel;
class ModelLoader;
class ModelSummaryView;
class ScopeTreeModel;

// The application window: opens ONNX models (menu, recent files, drag and drop, command
// line), imports them in the background and shows the summary and the scope tree beside
// the graph views (by scope, coarse, folded).
// A model that fails to import leaves the previous one on screen.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `commandLinePath` when given; otherwise, on the very first start (no recent
    // files), the bundled default model.
    void openAtStartup(const QString& commandLinePath);

    // The model on screen; null before the first successful import.
    [[nodiscard]] std::shared_ptr<const LoadedModel> model() const { return model_; }
    [[nodiscard]] bool isLoading() const;
    // The scope, coarse and folded drawings of the model on screen.
    [[nodiscard]] GraphViewsPanel* graphViews() const { return graphViews_; }

public slots:
    // Starts importing `path` in the background; File > Open, Open Recent, drops and the
    // command line all end here.
    void openFile(const QString& path);

signals:
    // An import finished (shown or reported); `succeeded` says which.
    void loadFinished(bool succeeded);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createLanguageMenu(QMenu* viewMenu);
    void chooseFile();
    void fillRecentMenu();
    void showAbout();
    void onLoadStarted(const QString& path);
    void onLoaded(std::shared_ptr<const LoadedModel> model);
    void onLoadFailed(const QString& path, const QString& problem, const QString& detail);
    void setBusy(bool busy);

    ModelLoader* loader_ = nullptr;
    std::shared_ptr<const LoadedModel> model_;
    QStackedWidget* pages_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QSplitter* sideSplitter_ = nullptr;
    GraphViewsPanel* graphViews_ = nullptr;
    ModelSummaryView* summaryView_ = nullptr;
    ScopeTreeModel* scopeModel_ = nullptr;
    QTreeView* scopeView_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QProgressBar* progress_ = nullptr;
};

}  // namespace tapestry
