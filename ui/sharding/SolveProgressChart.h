#pragma once

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace tapestry {

// The best cost a running solve has found so far, over the seconds since it started,
// as a falling step line (series "bestCostSeries"), and the lower bound on the optimum
// as a rising dashed one (series "lowerBoundSeries"); the title gives the gap. Costs
// that pay a forbidden cost (kCostCap and up) are placeholders, not plans: until the
// first plan within the limit the chart says it is searching for one, and the cost axis
// spans the plans found from then on.
class SolveProgressChart : public QChartView {
    Q_OBJECT

public:
    explicit SolveProgressChart(QWidget* parent = nullptr);

    // Clears the line; the time axis spans the time limit.
    void start(double timeLimitSeconds);
    void addBest(double seconds, double cost);
    void addBound(double seconds, double bound);

private:
    void redraw();

    QLineSeries* best_ = nullptr;
    QLineSeries* bound_ = nullptr;
    QValueAxis* time_ = nullptr;
    QValueAxis* cost_ = nullptr;
    QList<QPointF> costs_;  // unscaled, to rescale the line when the range grows
    QList<QPointF> bounds_;
};

}  // namespace tapestry
