#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTabWidget;

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;
struct SearchSetup;
class BreakdownCharts;
class NodeCostFilterModel;
class NodeCostModel;
class ParallelTrafficModel;
class PipelineTimeline;

// One plan in detail: its cost per coarse node as a sortable table with a name filter
// and a block filter, the totals of the rows shown, and the breakdown charts; for a
// pipelined plan also its schedule timeline (a second tab); for a plan with context or
// expert parallelism its ring attention and expert all-to-alls per layer (a third). The graph views colour
// themselves by the same plan (MainWindow sets the overlay).
class PlanInspector : public QWidget {
    Q_OBJECT

public:
    explicit PlanInspector(QWidget* parent = nullptr);

    // Null shows nothing. `setup` (the cluster and workload the plan was priced with)
    // adds its MFU and tokens/s per GPU, a warning when it prices above the GPU's peak,
    // and its summary in engineer terms (PlanSummary). The title's tooltip says the
    // workload the plan was priced for (workloadText).
    void setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate,
                 const SearchSetup* setup = nullptr);
    [[nodiscard]] QLabel* summaryLabel() const { return summary_; }
    [[nodiscard]] QLabel* titleLabel() const { return title_; }
    [[nodiscard]] const std::shared_ptr<const PlanCandidate>& candidate() const { return candidate_; }

    [[nodiscard]] NodeCostModel* model() const { return model_; }
    [[nodiscard]] NodeCostFilterModel* filter() const { return filter_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] QComboBox* familyBox() const { return family_; }
    [[nodiscard]] BreakdownCharts* charts() const { return charts_; }
    [[nodiscard]] PipelineTimeline* timeline() const { return timeline_; }
    [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
    [[nodiscard]] ParallelTrafficModel* trafficModel() const { return trafficModel_; }
    [[nodiscard]] QWidget* trafficPane() const { return trafficPane_; }
    [[nodiscard]] QLabel* trafficSummary() const { return trafficSummary_; }

    // "Priced for batch 16 × 2048 tokens, micro-batch 2, full recomputation, ZeRO stage 3":
    // the workload a plan was priced for, marking the batch and sequence that are
    // defaults because neither the model nor the user fixed them.
    [[nodiscard]] static QString workloadText(const PlanCandidate& candidate);

private:
    void updateTotals();
    void updateTraffic();

    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const PlanCandidate> candidate_;
    QLabel* title_ = nullptr;
    QLabel* summary_ = nullptr;
    QComboBox* family_ = nullptr;
    QLineEdit* search_ = nullptr;
    NodeCostModel* model_ = nullptr;
    NodeCostFilterModel* filter_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* totals_ = nullptr;
    BreakdownCharts* charts_ = nullptr;
    PipelineTimeline* timeline_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ParallelTrafficModel* trafficModel_ = nullptr;
    QWidget* trafficPane_ = nullptr;
    QLabel* trafficSummary_ = nullptr;
};

}  // namespace tapestry
