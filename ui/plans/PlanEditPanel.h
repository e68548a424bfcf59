#pragma once

#include "jobs/JobTracker.h"
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace tapestry {

class PlanEditor;
class StageBoundaryEditor;
class StrategyChoicesModel;
struct StrategyChoices;

// Hand edits of the open plan: pick a block position or a node, see every strategy it
// may take with the step time and memory each would give, apply one (re-costed at
// once, recorded, undoable), pin the edits and let the searcher complete the rest,
// start over from an expert plan, or move a pipeline's stage boundaries. The choices
// are priced in the background (one evaluate() per strategy), one job id per request,
// stale results dropped.
class PlanEditPanel : public QWidget {
    Q_OBJECT

public:
    explicit PlanEditPanel(PlanEditor* editor, QWidget* parent = nullptr);
    ~PlanEditPanel() override;

    [[nodiscard]] QComboBox* targetBox() const { return target_; }
    [[nodiscard]] QTableView* choicesView() const { return table_; }
    [[nodiscard]] StrategyChoicesModel* choicesModel() const { return model_; }
    [[nodiscard]] QPushButton* applyButton() const { return apply_; }
    [[nodiscard]] QComboBox* expertBox() const { return expert_; }
    [[nodiscard]] QPushButton* startButton() const { return start_; }
    [[nodiscard]] QPushButton* completeButton() const { return complete_; }
    [[nodiscard]] StageBoundaryEditor* boundaries() const { return boundaries_; }
    // True while the choices of the selected target are being priced.
    [[nodiscard]] bool isPricing() const { return jobs_.isBusy(); }
    // Selects the target that sets `name` (a pin target); false if there is none.
    bool selectTarget(const QString& name);

signals:
    // The user asked to start from an expert plan (sequence parallel or not) or from a
    // Hugging Face tp_plan file.
    void expertStartRequested(bool sequenceParallel);
    void hfTpPlanStartRequested();
    // New choices are on screen.
    void choicesPriced();

private:
    void onPlanChanged();
    void priceChoices();
    void applySelected();
    void updateButtons();

    PlanEditor* editor_;
    QLabel* title_ = nullptr;
    QComboBox* expert_ = nullptr;
    QPushButton* start_ = nullptr;
    QComboBox* target_ = nullptr;
    StrategyChoicesModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* undo_ = nullptr;
    QPushButton* redo_ = nullptr;
    QPushButton* complete_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* status_ = nullptr;
    StageBoundaryEditor* boundaries_ = nullptr;
    JobTracker jobs_;
};

}  // namespace tapestry
