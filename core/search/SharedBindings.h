#pragma once

#include "search/PlanPricing.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tapestry {

// The shapes a search session has bound, shared by its meshes, workloads and threads:
// a pricing whose workload binds the shapes one bound before (the same batch and
// sequence, compute type, attention kernel, K/V heads kept, saved activations, FP8 recipe
// and implementation and capacity factor, on as many GPUs) is that one's copy
// (CostModel::rebound) instead of a binding of its own, which grows with the model's depth.
class SharedBindings {
public:
    // What PlanPricing(model, setup, mesh, assumed) builds.
    [[nodiscard]] std::unique_ptr<PlanPricing> pricing(const std::shared_ptr<const FoldedModel>& model,
                                                       SearchSetup setup, const std::vector<MeshAxis>& mesh,
                                                       PipelineLayout assumed = {});

private:
    std::mutex lock_;
    std::map<std::string, std::shared_ptr<const PlanPricing>> seeds_;  // by what binds the shapes
};

}  // namespace tapestry
