#pragma once

#include "cost/PlanEvaluation.h"
#include "plan/Plan.h"

#include <functional>
#include <mutex>

namespace tapestry {

// A plan's evaluation with its breakdowns by op, node and family and its transfer list,
// priced when first asked for. A search compares plans by their totals
// (CostModel::evaluateTotals, which does not grow with the model's depth) and hands out
// many plans whose breakdowns nobody reads: the CLI reports totals, the GUI's per-node
// views read the plan on screen.
class DeferredEvaluation {
public:
    // `price`: CostModel::evaluate of the model that priced the totals (it keeps alive
    // what that model refers to).
    explicit DeferredEvaluation(std::function<PlanEvaluation(const Plan&)> price) : price_(std::move(price)) {}
    DeferredEvaluation(const DeferredEvaluation&) = delete;
    DeferredEvaluation& operator=(const DeferredEvaluation&) = delete;

    // `plan` priced on the first call (by one thread, the others wait for it); the same
    // evaluation afterwards, so every call must pass the plan whose totals were priced.
    [[nodiscard]] const PlanEvaluation& of(const Plan& plan) const;

private:
    std::function<PlanEvaluation(const Plan&)> price_;
    mutable std::once_flag priced_;
    mutable PlanEvaluation evaluation_;
};

}  // namespace tapestry
