#include "cli/Formatting.h"

#include "base/Error.h"

#include <charconv>
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

std::size_t parseCount(std::string_view text, std::string_view option)
{
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value == 0)
        throw Error(ErrorCode::InvalidArgument, {},
                    std::string(option) + " needs a positive whole number, not '" + std::string(text) + "'");
    return value;
}

}  // namespace tapestry::cli
