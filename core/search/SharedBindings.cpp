#include "search/SharedBindings.h"

#include "cost/AttentionHeads.h"
#include "cost/ExpertRouting.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"

#include <algorithm>
#include <utility>

namespace tapestry {

namespace {

// What a cost model binds its shapes from (what CostModel::rebound compares): the
// workload's batch, sequence, compute type, attention kernel, grouped K/V heads kept,
// saved activations, FP8 recipe and implementation and capacity factor, and the GPU count
// (the default batch). The stacks differ in some of these: each binds once, not once per
// layout (a key without them gave the first stack's seed, which the others could not
// rebind, and bound them anew for every layout).
std::string bindingKey(const Workload& workload, const std::vector<MeshAxis>& mesh)
{
    int devices = 1;
    for (const MeshAxis& axis : mesh)
        devices *= axis.size;
    return std::to_string(workload.batch) + "/" + std::to_string(workload.sequence) + "/" +
           std::to_string(static_cast<int>(workload.computeType)) + "/" +
           std::to_string(static_cast<int>(workload.attention)) + "/" +
           std::to_string(static_cast<int>(workload.keyValueHeads)) + "/" +
           std::to_string(static_cast<int>(workload.savedActivations)) + "/" + std::to_string(static_cast<int>(workload.fp8)) +
           "/" + std::to_string(static_cast<int>(workload.fp8Implementation)) + "/" +
           std::to_string(workload.capacityFactor) + "/" + std::to_string(devices);
}

}  // namespace

std::unique_ptr<PlanPricing> SharedBindings::pricing(const std::shared_ptr<const FoldedModel>& model,
                                                     SearchSetup setup, const std::vector<MeshAxis>& mesh,
                                                     PipelineLayout assumed)
{
    const std::string key = bindingKey(setup.workload, mesh);
    std::shared_ptr<const PlanPricing> seed;
    {
        const std::scoped_lock hold(lock_);
        if (const auto found = seeds_.find(key); found != seeds_.end())
            seed = found->second;
    }
    if (seed)
        return std::make_unique<PlanPricing>(*seed, std::move(setup), mesh, std::move(assumed));
    // Bound outside the lock: two threads binding at once bind alike.
    auto bound = std::make_shared<const PlanPricing>(model, setup, mesh, assumed);
    {
        const std::scoped_lock hold(lock_);
        seeds_.try_emplace(key, bound);
    }
    return std::make_unique<PlanPricing>(*bound, std::move(setup), mesh, std::move(assumed));
}

SharedBindings::LayoutCounts SharedBindings::layoutCounts(const FoldedModel& model, const Workload& workload)
{
    // A ShapeBinder reads the workload's batch and sequence only.
    const std::pair<std::int64_t, std::int64_t> key{workload.batch, workload.sequence};
    {
        const std::scoped_lock hold(lock_);
        if (const auto found = counts_.find(key); found != counts_.end())
            return found->second;
    }
    // Counted outside the lock: two threads counting at once count alike.
    const ShapeBinder binder(model.graph(), workload);
    LayoutCounts counts;
    counts.keyValueHeads = keyValueHeads(model.graph(), model.coarse, binder);
    for (const ExpertMembership& member : expertMembership(model.graph(), model.coarse, binder))
        counts.experts = std::max(counts.experts, member.experts);
    const std::scoped_lock hold(lock_);
    return counts_.try_emplace(key, counts).first->second;
}

}  // namespace tapestry
