#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace tapestry {

class PlanEditor;

// Moves one boundary between consecutive pipeline chunks of the plan being edited: pick
// the boundary, set the block its second chunk starts at; the plan is re-costed at once
// (PlanEditor::replacePlan, undoable) with the new chunk starts. Hidden for plans
// without a pipeline.
class StageBoundaryEditor : public QWidget {
    Q_OBJECT

public:
    explicit StageBoundaryEditor(PlanEditor* editor, QWidget* parent = nullptr);

    [[nodiscard]] QComboBox* boundaryBox() const { return boundary_; }
    [[nodiscard]] QSpinBox* startBox() const { return start_; }

private:
    void onPlanChanged();
    void showBoundary();
    void moveBoundary(int block);

    PlanEditor* editor_;
    QComboBox* boundary_ = nullptr;
    QSpinBox* start_ = nullptr;
    QLabel* sizes_ = nullptr;  // blocks per chunk around the boundary
};

}  // namespace tapestry
