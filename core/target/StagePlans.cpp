#include "target/StagePlans.h"

#include <algorithm>

namespace tapestry {

const std::vector<NodeStrategy>* StagePlans::find(const Kind& kind) const
{
    const auto found =
        std::find_if(plans_.begin(), plans_.end(), [&](const auto& plan) { return plan.first == kind; });
    return found == plans_.end() ? nullptr : &found->second;
}

void StagePlans::add(const Kind& kind, std::vector<NodeStrategy> strategies)
{
    if (!find(kind))
        plans_.emplace_back(kind, std::move(strategies));
}

}  // namespace tapestry
