#include "charts/ChartViews.h"

#include <QChart>
#include <QChartView>
#include <QValueAxis>

#include <cmath>

namespace tapestry {

void styleChartView(QChartView* view)
{
    view->setRenderHint(QPainter::Antialiasing);
    view->chart()->setMargins(QMargins(2, 2, 2, 2));
    view->chart()->legend()->setAlignment(Qt::AlignBottom);
    QFont small = view->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    view->chart()->legend()->setFont(small);
    QFont title = view->font();
    title.setBold(true);
    view->chart()->setTitleFont(title);
    view->setMinimumHeight(120);
}

QChartView* makeChartView(QWidget* parent, const QString& objectName)
{
    auto* view = new QChartView(parent);
    view->setObjectName(objectName);
    styleChartView(view);
    return view;
}

void setRoundTicks(QValueAxis* axis)
{
    // About six intervals.
    const double rough = (axis->max() - axis->min()) / 6;
    if (!(rough > 0))
        return;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = 10 * power;
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * power >= rough) {
            step = factor * power;
            break;
        }
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    // removeAxis hands the axis back to the caller (LeakSanitizer: every rebuild leaked them).
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace tapestry
