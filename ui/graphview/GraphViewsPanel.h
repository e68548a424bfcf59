#pragma once

#include "graphview/GraphViewKind.h"

#include <QTabWidget>

#include <memory>

namespace tapestry {

class GraphViewPane;
class ModelSession;
class PlanOverlay;

// The three drawings of the session's model, one tab each: the original graph by scope,
// the coarse graph, and the folded graph (the default). Shows the model once the
// session has folded it, draws the session's current plan over the coarse and folded
// views, and lays out a tab when it is first shown.
class GraphViewsPanel : public QTabWidget {
    Q_OBJECT

public:
    explicit GraphViewsPanel(ModelSession* session, QWidget* parent = nullptr);
    ~GraphViewsPanel() override;

    void showView(GraphViewKind kind);

    [[nodiscard]] GraphViewPane* pane(GraphViewKind kind) const;
    [[nodiscard]] GraphViewKind currentView() const;

signals:
    // The drawing of `kind` (or a message in its place) is on screen for the current model.
    void viewShown(tapestry::GraphViewKind kind);

private:
    void setPlanOverlay(const std::shared_ptr<const PlanOverlay>& overlay);

    ModelSession* session_;
    GraphViewPane* panes_[3] = {};
};

}  // namespace tapestry
