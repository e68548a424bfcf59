#include "search/StrategyChoices.h"

#include "search/PlanPricing.h"
#include "search/StrategySpace.h"

namespace tapestry {

Plan withStrategy(Plan plan, const EditTarget& target, const NodeStrategy& strategy)
{
    for (const CoarseNodeId node : target.nodes)
        plan.strategies.at(node.index()) = strategy;
    return plan;
}

StrategyChoices StrategyChoices::compute(const PlanPricing& pricing, const Plan& plan, const EditTarget& target)
{
    StrategyChoices result;
    result.target = target;
    const PlanEvaluation base = pricing.costs().evaluate(plan);
    result.baseStepSeconds = base.total.time.stepSeconds();
    result.baseMemoryBytes = base.total.memory.total();
    const NodeStrategy& current = plan.strategy(target.nodes.front());
    const bool expert = pricing.costs().facts(target.nodes.front()).experts > 0;
    for (NodeStrategy& strategy : strategiesFor(target.kind, pricing.mesh().shape(), expert)) {
        if (!pricing.costs().accepts(target.nodes.front(), strategy))
            continue;
        Choice choice;
        choice.current = strategy == current;
        if (choice.current) {
            choice.stepSeconds = result.baseStepSeconds;
            choice.memoryBytes = result.baseMemoryBytes;
        } else {
            const PlanEvaluation evaluation = pricing.costs().evaluate(withStrategy(plan, target, strategy));
            choice.stepSeconds = evaluation.total.time.stepSeconds();
            choice.memoryBytes = evaluation.total.memory.total();
        }
        choice.strategy = std::move(strategy);
        result.choices.push_back(std::move(choice));
    }
    return result;
}

}  // namespace tapestry
