#pragma once

#include <QString>

class QChart;
class QChartView;
class QValueAxis;
class QWidget;

namespace tapestry {

// The look every small chart of the app shares: antialiased, narrow margins, the legend
// below in a smaller font, a bold title.
void styleChartView(QChartView* view);
// A new view with that look.
[[nodiscard]] QChartView* makeChartView(QWidget* parent, const QString& objectName);
// Ticks at round multiples (1, 2 or 5 times a power of ten) from 0 across the axis's
// range, instead of the range divided evenly (0, 38, 75, 113, 150).
void setRoundTicks(QValueAxis* axis);
// Removes every series and axis, ready for new data.
void clearChart(QChart* chart);

}  // namespace tapestry
