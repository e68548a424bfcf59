#pragma once

#include <QChartView>

namespace tapestry {

struct SolutionEvaluation;

// A solution's cost as one bar split into node costs and edge costs, each named with
// its share in the legend.
class CostSplitChart : public QChartView {
    Q_OBJECT

public:
    explicit CostSplitChart(QWidget* parent = nullptr);

    // Null clears the chart.
    void setEvaluation(const SolutionEvaluation* evaluation);
};

}  // namespace tapestry
