#include "solver/UsageEnvelope.h"

#include <algorithm>

namespace tapestry {

std::vector<UsageColumn> usageEnvelope(const UsageProfile& usage, int columns)
{
    const std::int64_t count = usage.end;
    const std::int64_t columnCount = std::min<std::int64_t>(count, std::max(columns, 1));
    std::vector<UsageColumn> envelope;
    envelope.reserve(static_cast<std::size_t>(columnCount));
    std::size_t first = 0;  // the step in force at the column's start
    for (std::int64_t column = 0; column < columnCount; ++column) {
        // (column + 1) * count may not fit 64 bits for a long profile.
        __extension__ using Wide = __int128;
        const auto begin = static_cast<std::int64_t>(Wide{column} * count / columnCount);
        const auto end = static_cast<std::int64_t>(Wide{column + 1} * count / columnCount);
        while (first + 1 < usage.times.size() && usage.times[first + 1] <= begin)
            ++first;
        UsageColumn out{begin, end, usage.usages[first], usage.usages[first]};
        for (std::size_t k = first + 1; k < usage.times.size() && usage.times[k] < end; ++k) {
            out.min = std::min(out.min, usage.usages[k]);
            out.max = std::max(out.max, usage.usages[k]);
        }
        envelope.push_back(out);
    }
    return envelope;
}

}  // namespace tapestry
