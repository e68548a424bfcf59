#include "search/PlanComparison.h"

#include "fold/FoldedModel.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"

namespace tapestry {

std::shared_ptr<const PlanComparison> PlanComparison::make(const FoldedModel& folded,
                                                           std::shared_ptr<const PlanCandidate> a,
                                                           std::shared_ptr<const PlanCandidate> b)
{
    PlanDocument documentA;
    documentA.plan = a->plan;
    documentA.cost = costSummaryOf(a->evaluation);
    PlanDocument documentB;
    documentB.plan = b->plan;
    documentB.cost = costSummaryOf(b->evaluation);
    auto comparison = std::make_shared<PlanComparison>();
    comparison->diff = diffPlans(documentA, documentB, folded.coarse);
    comparison->groups = groupedChanges(comparison->diff, folded.coarse, folded.families);
    comparison->a = std::move(a);
    comparison->b = std::move(b);
    return comparison;
}

}  // namespace tapestry
