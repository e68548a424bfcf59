#pragma once

// Closed forms and sums the cost-model tests compare prices with.
#include "cluster/Cluster.h"
#include "cost/PlanEvaluation.h"
#include "fold/FoldedModel.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace tapestry::test {

// Equal up to `relative` of the larger magnitude.
inline bool near(double a, double b, double relative = 1e-9)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

// A ring all-gather or reduce-scatter of `bytes` (the whole tensor) over n devices.
inline double ringGatherOrScatter(int n, double bytes, const LinkSpec& link)
{
    return static_cast<double>(n - 1) / n * bytes / link.bytesPerSecond + (n - 1) * link.latencySeconds;
}

// The cost of everything inside one instance of the model's first family.
inline CostBreakdown instanceCost(const FoldedModel& m, const PlanEvaluation& e, std::size_t instance)
{
    CostBreakdown sum;
    sum.time.byAxis.assign(e.total.time.byAxis.size(), 0.0);
    for (const CoarseNodeId id : m.families.families.front().instances.at(instance).nodes)
        sum.add(e.perNode[id.index()]);
    return sum;
}

}  // namespace tapestry::test
