#include "plan/PhysicalLayout.h"

#include <algorithm>

namespace tapestry {

PhysicalLayout physicalLayout(const Plan& plan)
{
    const auto everyNodeSplitsTheBatch = [&](std::size_t axis) {
        return std::all_of(plan.strategies.begin(), plan.strategies.end(),
                           [axis](const NodeStrategy& s) { return s.axes.at(axis) == AxisSplit::Batch; });
    };
    PhysicalLayout layout;
    layout.splits.resize(plan.strategies.size());
    bool previousIsBatch = false;  // the last kept axis is a run of batch-only axes
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis) {
        if (plan.mesh[axis].size == 1)
            continue;
        const bool batch = everyNodeSplitsTheBatch(axis);
        if (batch && previousIsBatch) {
            layout.sizes.back() *= plan.mesh[axis].size;
            continue;
        }
        layout.sizes.push_back(plan.mesh[axis].size);
        for (std::size_t node = 0; node < plan.strategies.size(); ++node)
            layout.splits[node].push_back(plan.strategies[node].axes.at(axis));
        previousIsBatch = batch;
    }
    return layout;
}

}  // namespace tapestry
