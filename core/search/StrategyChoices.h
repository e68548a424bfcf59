#pragma once

#include "plan/EditTargets.h"
#include "plan/Plan.h"

#include <vector>

namespace tapestry {

class PlanPricing;

// The legal strategies of one edit target (strategiesFor its kind on the plan's mesh),
// each priced as the plan with only that change: what choosing it would cost.
struct StrategyChoices {
    struct Choice {
        NodeStrategy strategy;
        double stepSeconds = 0;
        double memoryBytes = 0;
        bool current = false;  // what the plan has now (the first target node's)
    };
    EditTarget target;
    double baseStepSeconds = 0;
    double baseMemoryBytes = 0;
    std::vector<Choice> choices;

    // One evaluate() per strategy (a few milliseconds each): background work.
    [[nodiscard]] static StrategyChoices compute(const PlanPricing& pricing, const Plan& plan,
                                                 const EditTarget& target);
};

// `plan` with every node of `target` set to `strategy`.
[[nodiscard]] Plan withStrategy(Plan plan, const EditTarget& target, const NodeStrategy& strategy);

}  // namespace tapestry
