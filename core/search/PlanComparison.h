#pragma once

#include "plan/PlanDiff.h"

#include <memory>

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// Two plans of one model side by side: core's PlanDiff of B against A (the nodes
// whose strategies differ and the totals' delta), those changes grouped by block position
// (one edit of a repeated block is one group), and the priced candidates, whose per-node
// breakdowns give each changed node's own delta. Immutable once made.
struct PlanComparison {
    std::shared_ptr<const PlanCandidate> a;
    std::shared_ptr<const PlanCandidate> b;
    PlanDiff diff;
    std::vector<StrategyChangeGroup> groups;  // groupedChanges(diff)

    // Throws Error(InvalidPlan) when a plan does not fit the model.
    [[nodiscard]] static std::shared_ptr<const PlanComparison> make(const FoldedModel& folded,
                                                                    std::shared_ptr<const PlanCandidate> a,
                                                                    std::shared_ptr<const PlanCandidate> b);
};

}  // namespace tapestry
