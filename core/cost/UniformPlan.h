#pragma once

#include "plan/Plan.h"

#include <memory>
#include <utility>

namespace tapestry {

struct PricingClasses;

// A plan checked once (CostModel::uniformPlan) to give every instance of a top-level
// family its representative's strategies, as the stack searches lay layers out.
// CostModel::evaluateTotals prices it by classes without checking it again: the check
// reads every node, the pricing only one per class. Its strategies cannot change after
// the check; its pipeline, which the check does not read, can.
class UniformPlan {
public:
    [[nodiscard]] const Plan& plan() const { return plan_; }
    void setPipeline(PipelineLayout pipeline) { plan_.pipeline = std::move(pipeline); }

private:
    friend class CostModel;
    UniformPlan(Plan plan, std::shared_ptr<const PricingClasses> checkedBy)
        : plan_(std::move(plan)), checkedBy_(std::move(checkedBy))
    {
    }

    Plan plan_;
    // The classes it was checked against, kept alive so that no other classes can take
    // their address: a model with other classes checks it again.
    std::shared_ptr<const PricingClasses> checkedBy_;
};

}  // namespace tapestry
