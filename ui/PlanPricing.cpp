#include "PlanPricing.h"

#include "fold/FoldedModel.h"
#include "LoadedModel.h"
#include "SearchResults.h"
#include "graph/ModelFingerprint.h"

namespace tapestry {

PlanPricing::PlanPricing(std::shared_ptr<const FoldedModel> folded, SearchSetup setup,
                         const std::vector<MeshAxis>& mesh)
    : folded_(std::move(folded)), setup_(std::move(setup))
{
    mesh_ = std::make_unique<DeviceMesh>(mesh, setup_.cluster);
    costs_ = std::make_unique<CostModel>(folded_->graph(), folded_->coarse, folded_->families, setup_.cluster,
                                         *mesh_, setup_.workload);
    fingerprint_ = tapestry::modelFingerprint(folded_->graph());
}

std::shared_ptr<const PlanCandidate> PlanPricing::price(Plan plan) const
{
    auto candidate = std::make_shared<PlanCandidate>();
    candidate->role = PlanCandidate::Role::Opened;
    candidate->evaluation = costs_->evaluate(plan);
    candidate->plan = std::move(plan);
    candidate->meshText = QString::fromStdString(mesh_->toString());
    return candidate;
}

PlanDocument PlanPricing::document(const PlanCandidate& candidate) const
{
    PlanDocument document;
    document.plan = candidate.plan;
    document.modelFingerprint = fingerprint_;
    document.clusterName = setup_.cluster.name;
    document.workload = setup_.workload;
    document.cost = costSummaryOf(candidate.evaluation);
    return document;
}

PlanCostSummary costSummaryOf(const PlanEvaluation& evaluation)
{
    const CostBreakdown& t = evaluation.total;
    return {t.time.stepSeconds(), t.time.computeSeconds, t.time.communicationSeconds(), t.memory.total(),
            evaluation.hbmBytes};
}

}  // namespace tapestry
