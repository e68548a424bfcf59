#include "UsageEnvelope.h"

#include <algorithm>

namespace tapestry {

std::vector<UsageColumn> usageEnvelope(const std::vector<std::int64_t>& usage, int columns)
{
    const auto count = static_cast<std::int64_t>(usage.size());
    const std::int64_t columnCount = std::min<std::int64_t>(count, std::max(columns, 1));
    std::vector<UsageColumn> envelope;
    envelope.reserve(static_cast<std::size_t>(columnCount));
    for (std::int64_t column = 0; column < columnCount; ++column) {
        const std::int64_t begin = column * count / columnCount;
        const std::int64_t end = (column + 1) * count / columnCount;
        const auto [min, max] = std::minmax_element(usage.begin() + begin, usage.begin() + end);
        envelope.push_back({begin, end, *min, *max});
    }
    return envelope;
}

}  // namespace tapestry
