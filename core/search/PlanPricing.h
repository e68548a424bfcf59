#pragma once

#include "cost/CostModel.h"
#include "plan/PlanFile.h"
#include "search/PlanCandidate.h"
#include "search/SearchSetup.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// What one plan is priced with: the folded model, the cluster, one mesh and the
// workload (and the search options a completion under pins uses). A mesh with a "pp"
// axis is a pipeline: the cost model prices one stage's devices (the other axes) and
// plans with that many stages. CostModel keeps references, so everything it reads
// lives here with it. Cheap to build (a few milliseconds); shared read-only, also
// between threads.
class PlanPricing {
public:
    // `assumed`: the virtual stages and schedule the search assumes on a pipelined mesh
    // (its stage count comes from the mesh). Throws Error(InvalidMesh) when `mesh` does
    // not fit the setup's cluster.
    PlanPricing(std::shared_ptr<const FoldedModel> folded, SearchSetup setup, const std::vector<MeshAxis>& mesh,
                PipelineLayout assumed = {});
    // `bound` with other training techniques (recomputation, ZeRO stage), sharing its
    // cluster, mesh and bound shapes (CostModel::withTechniques).
    PlanPricing(const PlanPricing& bound, Recomputation recompute, int zeroStage, int zeroReplicas);
    // The same as the first constructor, with `seed`'s bound shapes when they are the
    // same (CostModel::rebound: a search session binds them once for its meshes and
    // workloads), else binding anew.
    PlanPricing(const PlanPricing& seed, SearchSetup setup, const std::vector<MeshAxis>& mesh,
                PipelineLayout assumed = {});
    PlanPricing(const PlanPricing&) = delete;
    PlanPricing& operator=(const PlanPricing&) = delete;

    [[nodiscard]] const std::shared_ptr<const FoldedModel>& folded() const { return folded_; }
    [[nodiscard]] const SearchSetup& setup() const { return setup_; }
    // One pipeline stage's mesh (the whole mesh without a pipeline).
    [[nodiscard]] const DeviceMesh& mesh() const { return *mesh_; }
    // "[8, 2, 8] (pp, dp, tp)": the whole mesh.
    [[nodiscard]] const std::string& meshText() const { return meshText_; }
    [[nodiscard]] int pipelineStages() const { return costs_->pipeline().layout.stages; }
    [[nodiscard]] const CostModel& costs() const { return *costs_; }

    // The plan priced by this cost model, in `role`, saying it is priced with the
    // `implementations` of a stack (PlanCandidate::implementations: a plan file's, or the
    // plan an edit starts from) where this pricing's workload names them
    // (implementationsNamed), else with none in particular. Throws Error(InvalidPlan) when
    // it does not fit.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> price(Plan plan,
                                                             PlanCandidate::Role role = PlanCandidate::Role::Opened,
                                                             TrainingStack implementations = TrainingStack::Any) const;
    // The same priced by CostModel::evaluateTotals: when the plan lays every layer of a
    // family out alike, its evaluation has the totals only, and the candidate prices its
    // breakdowns when first asked for (PlanCandidate::breakdowns).
    [[nodiscard]] std::shared_ptr<const PlanCandidate> priceTotals(Plan plan, PlanCandidate::Role role) const;
    // The same of a plan checked once to be uniform (CostModel::uniformPlan).
    [[nodiscard]] std::shared_ptr<const PlanCandidate> priceTotals(const UniformPlan& plan,
                                                                   PlanCandidate::Role role) const;
    // `plan` with `evaluation`, what this cost model priced it at, in `role` (with a
    // totals-only evaluation, its breakdowns priced by this model when asked for).
    [[nodiscard]] std::shared_ptr<const PlanCandidate> candidate(PlanCandidate::Role role, Plan plan,
                                                                 PlanEvaluation evaluation) const;
    // planDocument() of `candidate` with this pricing's model, cluster and workload.
    [[nodiscard]] PlanDocument document(const PlanCandidate& candidate) const;
    // A lower bound on the step of any plan this pricing prices: every node at its least
    // compute over the strategies it may take, spread evenly over the pipeline's stages
    // (communication, the bubble and uneven stages only add to it), priced one member
    // per pricing class. Nothing once `cancelled` says so: it is asked before each class
    // (a mesh of several axes has many strategies per node to price).
    [[nodiscard]] std::optional<double> computeFloorSeconds(const std::function<bool()>& cancelled = {}) const;
    // A lower bound on the memory per device of any plan this pricing prices: every node
    // at its least states and gradients over the strategies it may take
    // (CostModel::strategyStateFloorBytes, strategyGradientFloorBytes) and its
    // activationFloorBytes, priced one member per pricing class (which price alike),
    // times their count; where eager PyTorch counts the larger of the gradients and the
    // activations, those two summed apart and the larger counted.
    [[nodiscard]] double memoryFloorBytes() const;

private:
    // What candidate() returns, before it is handed out as const.
    [[nodiscard]] std::shared_ptr<PlanCandidate> newCandidate(PlanCandidate::Role role, Plan plan,
                                                      PlanEvaluation evaluation) const;
    PlanPricing(const PlanPricing* seed, std::shared_ptr<const FoldedModel> folded, SearchSetup setup,
                const std::vector<MeshAxis>& mesh, PipelineLayout assumed);

    std::shared_ptr<const FoldedModel> folded_;
    SearchSetup setup_;
    // Shared with the pricings made from this one and with the candidates' deferred
    // evaluations: their cost models refer to them.
    std::shared_ptr<const Cluster> stageCluster_;
    std::shared_ptr<const DeviceMesh> mesh_;
    std::string meshText_;
    std::shared_ptr<const CostModel> costs_;
};

// The one plan-document builder: a priced plan as a plan file and a history record keep
// it, with the model's fingerprint, the cluster's name, the workload it was priced for
// (and whose implementations it names) and the cost summary.
[[nodiscard]] PlanDocument planDocument(const PlanCandidate& candidate, const std::string& modelFingerprint,
                                        const SearchSetup& setup);

// `searched` with the training techniques the search chose for a plan (recomputation, what
// selective recomputation recomputes and how full recomputation replays, ZeRO stage and
// implementation, overlapped pipeline sends, micro-batch; from the workload it
// was priced for): what prices that plan, or an edit of it, as the search did. Batch and
// sequence stay as given, so that a workload line still says where they come from.
[[nodiscard]] SearchSetup withChosenTechniques(SearchSetup searched, const Workload& chosen);

// The cost summary a plan file and the history keep (compute and exposed communication
// add up to the step).
[[nodiscard]] PlanCostSummary costSummaryOf(const PlanEvaluation& evaluation);

}  // namespace tapestry
