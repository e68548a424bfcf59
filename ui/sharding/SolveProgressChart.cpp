#include "sharding/SolveProgressChart.h"

#include "charts/AxisScale.h"
#include "charts/ChartViews.h"

#include "solver/ProblemReducer.h"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace tapestry {

SolveProgressChart::SolveProgressChart(QWidget* parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("solveProgressChart"));
    styleChartView(this);
    chart()->legend()->hide();
    time_ = new QValueAxis(chart());
    time_->setTitleText(tr("Seconds"));
    time_->setLabelFormat(QStringLiteral("%.0f"));
    cost_ = new QValueAxis(chart());
    cost_->setLabelFormat(QStringLiteral("%.5g"));
    logCost_ = new QLogValueAxis(this);
    logCost_->setLabelFormat(QStringLiteral("%.3g"));
    logCost_->setMinorTickCount(-1);  // 2..9 between the decades
    chart()->addAxis(time_, Qt::AlignBottom);
    chart()->addAxis(cost_, Qt::AlignLeft);
    best_ = new QLineSeries(chart());
    best_->setObjectName(QStringLiteral("bestCostSeries"));
    best_->setPen(QPen(QColor(0x1a, 0x73, 0xe8), 2));
    best_->setPointsVisible(true);  // a plan found only at the end is a point, not a line
    chart()->addSeries(best_);
    best_->attachAxis(time_);
    best_->attachAxis(cost_);
    bound_ = new QLineSeries(chart());
    bound_->setObjectName(QStringLiteral("lowerBoundSeries"));
    bound_->setPen(QPen(QColor(0x18, 0x80, 0x38), 2, Qt::DashLine));
    chart()->addSeries(bound_);
    bound_->attachAxis(time_);
    bound_->attachAxis(cost_);
    start(10);
}

void SolveProgressChart::start(double timeLimitSeconds)
{
    costs_.clear();
    bounds_.clear();
    time_->setRange(0, timeLimitSeconds);
    setRoundTicks(time_);
    redraw();
}

void SolveProgressChart::addBest(double seconds, double cost)
{
    if (cost >= static_cast<double>(kCostCap))
        return;
    // A step: the previous best holds until this moment.
    if (!costs_.isEmpty())
        costs_.append(QPointF(seconds, costs_.last().y()));
    costs_.append(QPointF(seconds, cost));
    if (seconds > time_->max()) {
        time_->setMax(seconds);
        setRoundTicks(time_);
    }
    redraw();
}

void SolveProgressChart::addBound(double seconds, double bound)
{
    if (!bounds_.isEmpty() && bound <= bounds_.last().y())
        return;
    if (!bounds_.isEmpty())
        bounds_.append(QPointF(seconds, bounds_.last().y()));
    bounds_.append(QPointF(seconds, bound));
    redraw();
}

void SolveProgressChart::redraw()
{
    if (costs_.isEmpty()) {
        best_->clear();
        bound_->clear();
        chart()->setTitle(tr("Searching for a plan within the limit…"));
        useCostAxis(cost_);
        cost_->setRange(0, 1);
        return;
    }
    QList<QPointF> scaled = costs_;
    double lowest = scaled.first().y();
    double highest = lowest;
    for (const QPointF& point : scaled) {
        lowest = std::min(lowest, point.y());
        highest = std::max(highest, point.y());
    }
    // The latest bound is the highest; earlier, weaker ones may fall below the axis.
    const double best = costs_.last().y();
    const bool bounded = !bounds_.isEmpty() && bounds_.last().y() > 0;
    if (bounded)
        lowest = std::min(lowest, bounds_.last().y());
    const AxisScale scale = AxisScale::forLargest(highest);
    for (QPointF& point : scaled)
        point.setY(point.y() / scale.divisor);
    best_->replace(scaled);
    QList<QPointF> bounds;
    if (bounded) {
        for (const QPointF& point : bounds_)
            bounds.append(QPointF(point.x(), point.y() / scale.divisor));
        // Held up to the latest improvement, so both lines end together.
        bounds.append(QPointF(std::max(bounds.last().x(), costs_.last().x()), bounds.last().y()));
    }
    bound_->replace(bounds);
    // The unit goes in the chart's title: the axis is too short for a long one.
    chart()->setTitle(bounded ? scale.title(tr("Best cost so far; lower bound, gap %L1 %")
                                                .arg(100.0 * (best - bounds_.last().y()) / best, 0, 'g', 3))
                              : scale.title(tr("Best cost so far")));
    // Costs that span decades (a first plan far above the last): on a linear axis every
    // later improvement would lie flat along the bottom, so the axis is logarithmic.
    if (lowest > 0 && highest >= 10 * lowest) {
        useCostAxis(logCost_);
        logCost_->setRange(std::pow(10.0, std::floor(std::log10(lowest / scale.divisor))),
                           std::pow(10.0, std::ceil(std::log10(highest / scale.divisor))));
        return;
    }
    useCostAxis(cost_);
    // Close to the lowest cost is where the search spends its time: the first incumbent is
    // often far above, so the axis starts just under the lowest, not at zero.
    // One cost alone still gets an axis a few ticks wide around it.
    const double margin = std::max((highest - lowest) * 0.05, std::abs(lowest) * 0.02 + 1);
    cost_->setRange(std::max(0.0, lowest - margin) / scale.divisor, (highest + margin) / scale.divisor);
    cost_->applyNiceNumbers();
}

void SolveProgressChart::useCostAxis(QAbstractAxis* axis)
{
    QAbstractAxis* other = axis == cost_ ? static_cast<QAbstractAxis*>(logCost_) : cost_;
    if (chart()->axes(Qt::Vertical).contains(axis))
        return;
    for (QLineSeries* series : {best_, bound_})
        series->detachAxis(other);
    chart()->removeAxis(other);  // the chart lets go of it: this view keeps it
    other->setParent(this);
    chart()->addAxis(axis, Qt::AlignLeft);
    for (QLineSeries* series : {best_, bound_})
        series->attachAxis(axis);
}

}  // namespace tapestry
