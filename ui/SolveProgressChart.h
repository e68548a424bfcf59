#pragma once

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace tapestry {

// The best cost a running solve has found so far, over the seconds since it started,
// as a falling step line (series "bestCostSeries").
class SolveProgressChart : public QChartView {
    Q_OBJECT

public:
    explicit SolveProgressChart(QWidget* parent = nullptr);

    // Clears the line; the time axis spans the time limit.
    void start(double timeLimitSeconds);
    void addBest(double seconds, double cost);

private:
    void redraw();

    QLineSeries* best_ = nullptr;
    QValueAxis* time_ = nullptr;
    QValueAxis* cost_ = nullptr;
    QList<QPointF> costs_;  // unscaled, to rescale the line when the range grows
};

}  // namespace tapestry
