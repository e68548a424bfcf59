#pragma once

#include "jobs/JobTracker.h"
#include "graphview/GraphViewKind.h"

#include <QTabWidget>

#include <memory>

namespace tapestry {

struct FoldedModel;
struct LoadedModel;
class GraphViewPane;
class PlanOverlay;

// The three drawings of the model on screen, one tab each: the original graph by scope,
// the coarse graph, and the folded graph (the default). Folds a new model in the
// background (one job id per model, stale results dropped) and lays out a tab when it
// is first shown.
class GraphViewsPanel : public QTabWidget {
    Q_OBJECT

public:
    using JobId = quint64;

    explicit GraphViewsPanel(QWidget* parent = nullptr);
    ~GraphViewsPanel() override;

    // Folds `model` in the background and then shows it; null clears every tab.
    void setModel(std::shared_ptr<const LoadedModel> model);
    void showView(GraphViewKind kind);
    // Draws a plan over the coarse and folded views; null removes it. A new model removes it.
    void setPlanOverlay(std::shared_ptr<const PlanOverlay> overlay);

    [[nodiscard]] GraphViewPane* pane(GraphViewKind kind) const;
    [[nodiscard]] GraphViewKind currentView() const;
    // The model on screen and its fold; the fold is null while folding.
    [[nodiscard]] std::shared_ptr<const LoadedModel> loadedModel() const { return model_; }
    [[nodiscard]] std::shared_ptr<const FoldedModel> foldedModel() const { return folded_; }
    [[nodiscard]] bool isFolding() const { return jobs_.isBusy(); }

signals:
    // The drawing of `kind` (or a message in its place) is on screen for the current model.
    void viewShown(tapestry::GraphViewKind kind);

private:
    void onFolded(std::shared_ptr<const FoldedModel> folded);

    GraphViewPane* panes_[3] = {};
    std::shared_ptr<const LoadedModel> model_;
    std::shared_ptr<const FoldedModel> folded_;
    JobTracker jobs_;
};

}  // namespace tapestry
