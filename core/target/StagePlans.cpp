#include "target/StagePlans.h"

#include "fold/FoldedModel.h"
#include "plan/ExpertPlans.h"

#include <algorithm>

namespace tapestry {

const std::vector<NodeStrategy>* StagePlans::find(const Kind& kind) const
{
    const auto found =
        std::find_if(plans_.begin(), plans_.end(), [&](const auto& plan) { return plan.first == kind; });
    return found == plans_.end() ? nullptr : &found->second;
}

void StagePlans::add(const Kind& kind, std::vector<NodeStrategy> strategies)
{
    if (!find(kind))
        plans_.emplace_back(kind, std::move(strategies));
}

Plan StagePlans::megatronPlan(bool sequenceParallel, const std::vector<MeshAxis>& mesh)
{
    const ExpertPlanKind kind = sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel : ExpertPlanKind::Megatron;
    if (mesh.empty())
        return makeExpertPlan(kind, model_->coarse, mesh);  // no axis to split: data parallel
    std::optional<std::vector<AxisSplit>>& splits = megatronSplits_[sequenceParallel ? 1 : 0];
    if (!splits) {
        const Plan oneAxis = makeExpertPlan(kind, model_->coarse, {{"tp", 1}});
        splits.emplace();
        splits->reserve(oneAxis.strategies.size());
        for (const NodeStrategy& strategy : oneAxis.strategies)
            splits->push_back(strategy.axes.back());
    }
    Plan plan;
    plan.origin = PlanOrigin::Expert;
    plan.name = expertPlanName(kind);
    plan.mesh = mesh;
    plan.strategies.assign(splits->size(), NodeStrategy{AxisSplits(mesh.size(), AxisSplit::Batch)});
    for (std::size_t n = 0; n < splits->size(); ++n)
        plan.strategies[n].axes.back() = (*splits)[n];
    return plan;
}

}  // namespace tapestry
