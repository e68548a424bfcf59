#pragma once

#include "search/PlanPricing.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tapestry {

// The shapes a search session has bound, shared by its meshes, workloads and threads:
// a pricing whose workload binds the shapes one bound before (the same batch and
// sequence, compute type, attention kernel, K/V heads kept, saved activations, FP8 recipe
// and implementation and capacity factor, on as many GPUs) is that one's copy
// (CostModel::rebound) instead of a binding of its own, which grows with the model's depth.
// One per session's model: what it keeps is keyed by the workload only, so every call
// passes that one model.
class SharedBindings {
public:
    // What PlanPricing(model, setup, mesh, assumed) builds.
    [[nodiscard]] std::unique_ptr<PlanPricing> pricing(const std::shared_ptr<const FoldedModel>& model,
                                                       SearchSetup setup, const std::vector<MeshAxis>& mesh,
                                                       PipelineLayout assumed = {});

    // What a stack's layouts are chosen by (stackLayouts): the fewest K/V heads of the
    // model's attention (keyValueHeads) and the most experts of one of its layers
    // (expertMembership), 0 where it has none, as `workload`'s batch and sequence bind
    // the shapes. Each walks every attention or expert node: found once per session.
    struct LayoutCounts {
        int keyValueHeads = 0;
        int experts = 0;
    };
    [[nodiscard]] LayoutCounts layoutCounts(const FoldedModel& model, const Workload& workload);

private:
    std::mutex lock_;
    std::map<std::string, std::shared_ptr<const PlanPricing>> seeds_;  // by what binds the shapes
    std::map<std::pair<std::int64_t, std::int64_t>, LayoutCounts> counts_;  // by batch and sequence
};

}  // namespace tapestry
