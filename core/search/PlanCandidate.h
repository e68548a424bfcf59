#pragma once

#include "cost/PlanEvaluation.h"
#include "cost/ShapeBinder.h"
#include "cost/Workload.h"
#include "plan/Plan.h"
#include "search/DeferredEvaluation.h"
#include "target/TrainingStack.h"

#include <memory>
#include <string>

namespace tapestry {

// One priced plan: a searched plan, an expert reference or a plan opened from
// elsewhere, with the cost of its mesh's cost model.
struct PlanCandidate {
    // Opened: a plan outside a search's results (edited, imported, started from an
    // expert annotation, opened from the history or a file); its plan's origin says which.
    enum class Role { Best, Alternative, BestSoFar, Expert, Opened };

    Role role = Role::Best;
    Plan plan;  // carries its name, origin and mesh axes
    // Its price: the totals, and the breakdowns too unless evaluation.totalsOnly (then
    // breakdowns() prices them when first asked for).
    PlanEvaluation evaluation;
    std::shared_ptr<const DeferredEvaluation> deferred;  // set with a totals-only evaluation
    // The workload it was priced for: batch and sequence resolved, and the training
    // techniques (recomputation, ZeRO stage) the search chose for it.
    Workload workload;
    // The stack whose own search found it, priced with that stack's implementations
    // (withStackImplementations); Any: found or priced with none in particular. Set by the
    // search, never guessed from `workload`: an `any` workload may name the same ones.
    TrainingStack implementations = TrainingStack::Any;
    // Where its batch and sequence come from: Default when the model does not fix them
    // (or fixes only an exporter's trace-time dummy) and the workload left them unset.
    ShapeBinder::Source batchSource = ShapeBinder::Source::Workload;
    ShapeBinder::Source sequenceSource = ShapeBinder::Source::Workload;
    std::string meshText;  // "[2, 8] (dp, tp)"

    // The evaluation with its breakdowns by op, node and family and its transfer list
    // (priced on the first call for a totals-only candidate; its total equals
    // evaluation's up to rounding). Safe from several threads.
    [[nodiscard]] const PlanEvaluation& breakdowns() const
    {
        return evaluation.totalsOnly && deferred ? deferred->of(plan) : evaluation;
    }
    [[nodiscard]] double stepSeconds() const { return evaluation.total.time.stepSeconds(); }
    [[nodiscard]] double memoryBytes() const { return evaluation.total.memory.total(); }
    [[nodiscard]] bool isSearched() const { return role == Role::Best || role == Role::Alternative || role == Role::BestSoFar; }
};

// The one rule for which of two plans a search keeps: fitting `limitBytes` before not
// fitting, then the faster; among plans that do not fit, the smaller.
[[nodiscard]] inline bool isPreferred(const PlanCandidate& a, const PlanCandidate& b, double limitBytes)
{
    const bool aFits = a.memoryBytes() <= limitBytes;
    const bool bFits = b.memoryBytes() <= limitBytes;
    if (aFits != bFits)
        return aFits;
    return aFits ? a.stepSeconds() < b.stepSeconds() : a.memoryBytes() < b.memoryBytes();
}

}  // namespace tapestry
