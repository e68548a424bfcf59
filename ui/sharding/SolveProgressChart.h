#pragma once

#include <QChartView>

class QAbstractAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace tapestry {

// The best cost a running solve has found so far, over the seconds since it started,
// as a falling step line (series "bestCostSeries"), and the lower bound on the optimum
// as a rising dashed one (series "lowerBoundSeries"); the title gives the gap. Costs
// that pay a forbidden cost (kCostCap and up) are placeholders, not plans: until the
// first plan within the limit the chart says it is searching for one, and the cost axis
// spans the plans found from then on, logarithmic where they span a decade or more.
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
    // Shows `axis` (cost_ or logCost_) as the cost axis of both lines.
    void useCostAxis(QAbstractAxis* axis);

    QLineSeries* best_ = nullptr;
    QLineSeries* bound_ = nullptr;
    QValueAxis* time_ = nullptr;
    QValueAxis* cost_ = nullptr;
    QLogValueAxis* logCost_ = nullptr;  // owned here while the chart does not show it
    QList<QPointF> costs_;  // unscaled, to rescale the line when the range grows
    QList<QPointF> bounds_;
};

}  // namespace tapestry
