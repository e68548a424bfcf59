#include "search/DeferredEvaluation.h"

namespace tapestry {

const PlanEvaluation& DeferredEvaluation::of(const Plan& plan) const
{
    std::call_once(priced_, [&] { evaluation_ = price_(plan); });
    return evaluation_;
}

}  // namespace tapestry
