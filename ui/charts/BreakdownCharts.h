#pragma once

#include <QWidget>

#include <memory>

class QChartView;

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// Two charts of one plan's cost per device: step time stacked by component (compute and
// each collective) for the whole step and for each repeated block, and memory stacked
// by category against the HBM capacity line.
class BreakdownCharts : public QWidget {
    Q_OBJECT

public:
    explicit BreakdownCharts(QWidget* parent = nullptr);

    void setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate);

    [[nodiscard]] QChartView* timeChart() const { return time_; }
    [[nodiscard]] QChartView* memoryChart() const { return memory_; }

private:
    void showTime(const FoldedModel& folded, const PlanCandidate& candidate);
    void showMemory(const PlanCandidate& candidate);

    QChartView* time_ = nullptr;
    QChartView* memory_ = nullptr;
};

}  // namespace tapestry
