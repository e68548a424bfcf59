#include "common/QuantityFormat.h"

#include "solver/SolutionEvaluator.h"

#include <QLocale>

#include <array>
#include <limits>

namespace tapestry {

namespace {

// `value` scaled to the largest unit it reaches (index 0 means no unit), with three
// significant digits.
struct Scaled {
    QString number;
    std::size_t unit = 0;
};

Scaled scale(std::uint64_t value, std::size_t unitCount)
{
    double scaled = static_cast<double>(value);
    std::size_t unit = 0;
    while (scaled >= 999.5 && unit + 1 < unitCount) {
        scaled /= 1000.0;
        ++unit;
    }
    if (unit == 0)
        return {QLocale().toString(static_cast<qulonglong>(value)), 0};
    const int decimals = scaled < 9.995 ? 2 : scaled < 99.95 ? 1 : 0;
    return {QLocale().toString(scaled, 'f', decimals), unit};
}

}  // namespace

QString QuantityFormat::count(std::uint64_t value)
{
    const std::array units{
        QString(),
        tr("%1 K", "thousand, as in a parameter count"),
        tr("%1 M", "million, as in a parameter count"),
        tr("%1 B", "billion, as in a parameter count (8.03 B parameters)"),
        tr("%1 T", "trillion, as in a parameter count"),
    };
    const Scaled s = scale(value, units.size());
    return s.unit == 0 ? s.number : units[s.unit].arg(s.number);
}

QString QuantityFormat::bytes(std::uint64_t value)
{
    const std::array units{
        tr("%1 bytes"), tr("%1 kB"), tr("%1 MB"), tr("%1 GB"), tr("%1 TB"),
    };
    const Scaled s = scale(value, units.size());
    return units[s.unit].arg(s.number);
}

QString QuantityFormat::exact(std::uint64_t value)
{
    return QLocale().toString(static_cast<qulonglong>(value));
}

QString QuantityFormat::cost(CostSum value)
{
    if (value >= std::numeric_limits<qlonglong>::min() && value <= std::numeric_limits<qlonglong>::max())
        return QLocale().toString(static_cast<qlonglong>(value));
    return QString::fromStdString(costToString(value));
}

QString QuantityFormat::duration(double seconds)
{
    // Rounded as shown: 0.9996 s reads "1.0 s", not "1000 ms".
    if (seconds * 1e3 < 9.95)
        return tr("%L1 ms").arg(seconds * 1e3, 0, 'f', 1);
    if (seconds * 1e3 < 999.5)
        return tr("%L1 ms").arg(seconds * 1e3, 0, 'f', 0);
    return tr("%L1 s").arg(seconds, 0, 'f', 1);
}

}  // namespace tapestry
