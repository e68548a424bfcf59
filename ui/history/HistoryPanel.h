#pragma once

#include "jobs/JobTracker.h"
#include "history/HistoryRecords.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeView;

namespace tapestry {

class HistoryRecorder;
class HistoryTreeModel;

// The history browser: runs and plans as a lineage tree (HistoryTreeModel), read in the
// background (one job id per refresh, stale reads dropped) whenever the window records
// something. Open, compare (two plans selected), export, tag, delete (a plan others
// were derived from only after confirming) and re-cost a stale plan in one click.
// Opening, comparing, exporting and re-costing need the model on screen: the panel
// asks, the window does it.
class HistoryPanel : public QWidget {
    Q_OBJECT

public:
    explicit HistoryPanel(HistoryRecorder* recorder, QWidget* parent = nullptr);

    [[nodiscard]] HistoryTreeModel* model() const { return model_; }
    [[nodiscard]] QTreeView* view() const { return view_; }
    [[nodiscard]] bool isReading() const { return jobs_.isBusy(); }
    // The plans selected, in selection order.
    [[nodiscard]] std::vector<PlanRecord> selectedPlans() const;

public slots:
    // Reads the history again in the background.
    void refresh();

signals:
    void openRequested(const tapestry::PlanRecord& plan);
    void compareRequested(const tapestry::PlanRecord& a, const tapestry::PlanRecord& b);
    void exportRequested(const tapestry::PlanRecord& plan);
    void recostRequested(const tapestry::PlanRecord& plan);
    // A refresh is on screen.
    void refreshed();

private:
    void tagSelected();
    void deleteSelected();
    void updateButtons();

    HistoryRecorder* recorder_;
    HistoryTreeModel* model_ = nullptr;
    QTreeView* view_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* open_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* tag_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* recost_ = nullptr;
    JobTracker jobs_;
};

}  // namespace tapestry
