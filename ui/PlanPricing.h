#pragma once

#include "SearchSetup.h"
#include "cost/CostModel.h"
#include "plan/PlanFile.h"

#include <memory>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// What one plan is priced and edited with: the folded model, the cluster, the mesh and
// the workload (and the search options a completion under pins uses). CostModel keeps
// references, so everything it reads lives here with it. Built on the GUI thread (a
// few milliseconds), then shared read-only, also with background jobs.
class PlanPricing {
public:
    // Throws Error(InvalidMesh) when `mesh` does not fit the setup's cluster.
    PlanPricing(std::shared_ptr<const FoldedModel> folded, SearchSetup setup, const std::vector<MeshAxis>& mesh);
    PlanPricing(const PlanPricing&) = delete;
    PlanPricing& operator=(const PlanPricing&) = delete;

    [[nodiscard]] const std::shared_ptr<const FoldedModel>& folded() const { return folded_; }
    [[nodiscard]] const SearchSetup& setup() const { return setup_; }
    [[nodiscard]] const DeviceMesh& mesh() const { return *mesh_; }
    [[nodiscard]] const CostModel& costs() const { return *costs_; }
    [[nodiscard]] const std::string& modelFingerprint() const { return fingerprint_; }

    // The plan priced by this cost model (role Opened). Throws Error(InvalidPlan) when it
    // does not fit.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> price(Plan plan) const;
    // The plan as a file: with the model's fingerprint, cluster, workload and cost.
    [[nodiscard]] PlanDocument document(const PlanCandidate& candidate) const;

private:
    std::shared_ptr<const FoldedModel> folded_;
    SearchSetup setup_;
    std::unique_ptr<DeviceMesh> mesh_;
    std::unique_ptr<CostModel> costs_;
    std::string fingerprint_;
};

// The cost summary a plan file and the history keep.
[[nodiscard]] PlanCostSummary costSummaryOf(const PlanEvaluation& evaluation);

}  // namespace tapestry
