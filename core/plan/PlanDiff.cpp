#include "plan/PlanDiff.h"

#include "base/Error.h"
#include "plan/EditTargets.h"

#include <algorithm>
#include <map>

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

std::vector<StrategyChangeGroup> groupedChanges(const PlanDiff& diff, const CoarseGraph& coarse,
                                                const FamilyTable& families)
{
    const std::vector<EditTarget> targets = editTargets(coarse, families);
    std::vector<std::size_t> targetOf(coarse.nodes.size(), 0);
    for (std::size_t t = 0; t < targets.size(); ++t)
        for (const CoarseNodeId id : targets[t].nodes)
            targetOf[id.index()] = t;
    std::vector<StrategyChangeGroup> groups;
    std::map<std::size_t, std::vector<std::size_t>> groupsOfTarget;  // a position's changes, by how they change
    for (const NodeStrategyChange& change : diff.changes) {
        const std::size_t target = targetOf[change.node.index()];
        std::vector<std::size_t>& ofTarget = groupsOfTarget[target];
        const auto same = std::find_if(ofTarget.begin(), ofTarget.end(), [&](std::size_t g) {
            return groups[g].before == change.before && groups[g].after == change.after;
        });
        const std::size_t g = same != ofTarget.end() ? *same : groups.size();
        if (same == ofTarget.end()) {
            ofTarget.push_back(g);
            groups.push_back({change.name, change.before, change.after, {}});
        }
        groups[g].nodes.push_back(change.node);
        if (groups[g].nodes.size() == 2)
            groups[g].name = targets[target].name;
    }
    return groups;
}

}  // namespace tapestry
