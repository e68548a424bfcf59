#include "cli/Formatting.h"

#include <cstdio>

namespace tapestry::cli {

namespace {

std::string scaled(double value, const char* const* units, int unitCount)
{
    int unit = 0;
    while (value >= 1000.0 && unit + 1 < unitCount) {
        value /= 1000.0;
        ++unit;
    }
    char buffer[32];
    if (unit == 0)
        std::snprintf(buffer, sizeof buffer, "%.0f%s", value, units[0]);
    else
        std::snprintf(buffer, sizeof buffer, value < 100.0 ? "%.2f %s" : "%.1f %s", value, units[unit]);
    return buffer;
}

}  // namespace

std::string humanCount(std::uint64_t count)
{
    static const char* const units[] = {"", "K", "M", "B", "T"};
    return scaled(static_cast<double>(count), units, 5);
}

std::string humanBytes(std::uint64_t bytes)
{
    static const char* const units[] = {" B", "kB", "MB", "GB", "TB"};
    return scaled(static_cast<double>(bytes), units, 5);
}

}  // namespace tapestry::cli
