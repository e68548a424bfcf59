#include "charts/AxisScale.h"

#include <array>
#include <cmath>

namespace tapestry {

AxisScale AxisScale::forLargest(double largest)
{
    const std::array units{tr("thousands"), tr("millions"), tr("billions"), tr("trillions"), tr("quadrillions"),
                           tr("quintillions")};
    AxisScale scale;
    for (const QString& unit : units) {
        if (std::abs(largest) / scale.divisor < 1e4)
            break;
        scale.divisor *= 1e3;
        scale.unit = unit;
    }
    return scale;
}

QString AxisScale::title(const QString& quantity) const
{
    return unit.isEmpty() ? quantity : tr("%1 (%2)", "an axis title: quantity (unit)").arg(quantity, unit);
}

}  // namespace tapestry
