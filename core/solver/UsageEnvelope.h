#pragma once

#include "solver/SolutionEvaluator.h"

#include <cstdint>
#include <vector>

namespace tapestry {

// Consecutive time points [begin, end) drawn as one column of a chart.
struct UsageColumn {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::int64_t min = 0;
    std::int64_t max = 0;
};

// The usage over time reduced to at most `columns` columns (one per time point when
// there are fewer), each keeping the smallest and largest usage it covers: a chart of
// tens of thousands of time points stays fast, and its peak and every overload stay
// visible. Columns cover all time points in order, their sizes differ by at most one.
// Linear in the profile's steps plus the columns, however long the time axis.
[[nodiscard]] std::vector<UsageColumn> usageEnvelope(const UsageProfile& usage, int columns);

}  // namespace tapestry
