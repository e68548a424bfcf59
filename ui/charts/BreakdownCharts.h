#pragma once

#include <QWidget>

#include <memory>

class QChartView;
class QLabel;

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// Two charts of one plan's cost per device: step time stacked by the parts that add up
// to it (compute, recomputation, optimizer update, exposed communication, and for a
// pipeline the sends between stages and the bubble) for the whole step and each
// repeated block (for a pipeline: each stage), with the communication hidden under compute as a
// thin bar over them; and memory stacked by category against the HBM capacity line.
class BreakdownCharts : public QWidget {
    Q_OBJECT

public:
    explicit BreakdownCharts(QWidget* parent = nullptr);

    void setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate);

    [[nodiscard]] QChartView* timeChart() const { return time_; }
    [[nodiscard]] QChartView* memoryChart() const { return memory_; }
    [[nodiscard]] QLabel* timeParts() const { return timeParts_; }
    [[nodiscard]] QLabel* timeLegend() const { return timeLegend_; }

private:
    void showTime(const FoldedModel& folded, const PlanCandidate& candidate);
    void showMemory(const PlanCandidate& candidate);

    QChartView* time_ = nullptr;
    QLabel* timeLegend_ = nullptr;  // the parts' colours, wrapped: a chart's own legend cuts them to "…"
    QLabel* timeParts_ = nullptr;  // the step's parts in numbers, under the time chart
    QChartView* memory_ = nullptr;
};

}  // namespace tapestry
