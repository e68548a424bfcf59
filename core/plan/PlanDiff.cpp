#include "plan/PlanDiff.h"

#include "base/Error.h"

namespace tapestry {

PlanDiff diffPlans(const PlanDocument& a, const PlanDocument& b, const CoarseGraph& coarse)
{
    for (const PlanDocument* document : {&a, &b}) {
        if (document->plan.strategies.size() != coarse.nodes.size())
            throw Error(ErrorCode::InvalidPlan, {},
                        "plan '" + document->plan.name + "' has " + std::to_string(document->plan.strategies.size()) +
                            " strategies for a model with " + std::to_string(coarse.nodes.size()) + " coarse nodes");
    }
    PlanDiff diff;
    diff.meshDiffers = a.plan.mesh != b.plan.mesh;
    for (const CoarseNode& node : coarse.nodes) {
        const NodeStrategy& before = a.plan.strategy(node.id);
        const NodeStrategy& after = b.plan.strategy(node.id);
        if (before != after)
            diff.changes.push_back({node.id, node.name, before, after});
    }
    if (a.cost && b.cost) {
        diff.costDelta = PlanCostDelta{b.cost->stepSeconds - a.cost->stepSeconds,
                                       b.cost->computeSeconds - a.cost->computeSeconds,
                                       b.cost->communicationSeconds - a.cost->communicationSeconds,
                                       b.cost->memoryBytes - a.cost->memoryBytes};
    }
    return diff;
}

}  // namespace tapestry
