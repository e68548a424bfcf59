#pragma once

#include <QCoreApplication>
#include <QString>

namespace tapestry {

// Large values on a chart axis counted in thousands, millions, ... so that its labels
// stay short: 274,788,776 bytes show as 274.8 on an axis titled "Memory usage (millions)".
struct AxisScale {
    Q_DECLARE_TR_FUNCTIONS(AxisScale)

public:
    double divisor = 1;
    QString unit;  // empty: no scaling

    // The scale whose labels of `largest` have at most three digits before the point.
    [[nodiscard]] static AxisScale forLargest(double largest);
    // "Memory usage (millions)", or just the quantity when nothing is scaled.
    [[nodiscard]] QString title(const QString& quantity) const;
};

}  // namespace tapestry
