#pragma once

#include "plans/PlanCompareView.h"
#include "history/HistoryRecords.h"
#include "target/TrainingStack.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace tapestry {

class ClusterPanel;
class ExportDialog;
class GraphViewsPanel;
class HistoryPanel;
class HistoryRecorder;
class ModelSession;
class PlanEditPanel;
class PlanEditor;
class PlanPricing;
struct FoldedModel;
struct PlanCandidate;
struct PlanDocument;
struct ViewNodeRef;

// What the window does with plans after a search: hand edits with undo (PlanEditor,
// PlanEditPanel), comparison of any two plans (PlanCompareView), the history browser
// (HistoryPanel) over the database the CLI uses, exports, and plan files dropped on
// the window. Owns those docks and the Plan menu. Follows the session's model and
// searches (finished searches are recorded in the history); the plan it edits is the
// session's current plan.
class PlanWorkbench : public QObject {
    Q_OBJECT

public:
    // The comparison's dock shares a tab with `besideDock`.
    PlanWorkbench(QMainWindow* window, ModelSession* session, GraphViewsPanel* graphViews, ClusterPanel* clusterPanel,
                  QDockWidget* besideDock);
    ~PlanWorkbench() override;

    // The Plan menu (undo, redo, compare, export, open plan file, save view, fit) and
    // the docks' toggles for the View menu.
    void addMenu(QMenu* planMenu, QMenu* viewMenu);

    // A search result opened in the inspector: it becomes the plan being edited.
    void candidateOpened(const std::shared_ptr<const PlanCandidate>& candidate);
    // A plan file of any kind importPlanFile reads (a Tapestry plan, an ONNX export, a
    // training stack's file, a tp_plan) for the model on screen (menu, drop, --open-plan).
    void openPlanFile(const QString& path);

    [[nodiscard]] PlanEditor* editor() const { return editor_; }
    [[nodiscard]] PlanEditPanel* editPanel() const { return editPanel_; }
    [[nodiscard]] QDockWidget* editDock() const { return editDock_; }
    [[nodiscard]] QDockWidget* historyDock() const { return historyDock_; }
    [[nodiscard]] QDockWidget* compareDock() const { return compareDock_; }
    [[nodiscard]] PlanCompareView* compareView() const { return compareView_; }
    [[nodiscard]] HistoryPanel* historyPanel() const { return historyPanel_; }
    [[nodiscard]] HistoryRecorder* recorder() const { return recorder_; }
    [[nodiscard]] QAction* compareAction() const { return compare_; }
    [[nodiscard]] QAction* exportAction() const { return export_; }

    // Starts editing from an expert plan on the cluster panel's mesh.
    void startFromExpert(bool sequenceParallel);
    // Compares the plan being edited with the one it started from (or the search's best).
    void compareWithOrigin();
    // Opens the export dialog for the plan being edited.
    void exportPlan();

signals:
    // `text` is translated; shown in the status bar.
    void message(const QString& text);
    // A plan of another model was opened from the history: the window opens that model,
    // and the plan follows once it is folded.
    void modelRequested(const QString& path);

private:
    void onModelChanged();
    void revealCompare();
    [[nodiscard]] const std::shared_ptr<const FoldedModel>& folded() const;
    // A pricing for `mesh` on the cluster panel's cluster, with `workload` if given.
    [[nodiscard]] std::shared_ptr<const PlanPricing> currentPricing(const std::vector<MeshAxis>& mesh,
                                                                    const Workload* workload) const;
    void showEdited();
    // A box selected in a graph view: its edit target in the editor.
    void selectTargetOf(const ViewNodeRef& ref);
    void refreshChoices();
    // Edits `plan`, imported from `fileName`, priced by `pricing` (with the
    // `implementations` of the stack whose file it is); the status bar names the file and
    // the first of `warnings`.
    void startFromImport(Plan plan, std::shared_ptr<const PlanPricing> pricing, TrainingStack implementations,
                         const QString& fileName, const std::vector<std::string>& warnings);
    // Opens the record in the editor; a record of another model opens that model first.
    void openRecord(const PlanRecord& record);
    [[nodiscard]] bool isOfModelOnScreen(const PlanRecord& record) const;
    [[nodiscard]] PlanCompareView::Choice choiceOfRecord(const PlanRecord& record);
    void exportRecord(const PlanRecord& record);
    // The status bar says what the dialog wrote where.
    // `cluster`: the GPUs `document` runs on (dropped when they are not its GPUs).
    ExportDialog* openExportDialog(std::optional<PlanDocument> document, std::optional<Cluster> cluster);
    void recostRecord(const PlanRecord& record);
    void fitView();
    void reportProblem(const QString& title, const QString& text);

    QMainWindow* window_;
    ModelSession* session_;
    GraphViewsPanel* graphViews_;
    ClusterPanel* clusterPanel_;
    HistoryRecorder* recorder_ = nullptr;
    PlanEditor* editor_ = nullptr;
    PlanEditPanel* editPanel_ = nullptr;
    PlanCompareView* compareView_ = nullptr;
    HistoryPanel* historyPanel_ = nullptr;
    QDockWidget* editDock_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    QDockWidget* historyDock_ = nullptr;
    QAction* compare_ = nullptr;
    QAction* export_ = nullptr;

    std::shared_ptr<const PlanCandidate> origin_;  // what the edits started from
    QList<PlanCompareView::Choice> extraChoices_;  // plans opened from the history or files
    std::optional<PlanRecord> pendingRecord_;      // opens once its model is folded
};

}  // namespace tapestry
