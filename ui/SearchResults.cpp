#include "SearchResults.h"

namespace tapestry {

std::shared_ptr<const PlanCandidate> SearchResults::best() const
{
    std::shared_ptr<const PlanCandidate> chosen;
    for (const auto& candidate : candidates) {
        if (candidate->role == PlanCandidate::Role::Expert || candidate->memoryBytes() > memoryLimitBytes)
            continue;
        if (!chosen || candidate->stepSeconds() < chosen->stepSeconds())
            chosen = candidate;
    }
    return chosen;
}

}  // namespace tapestry
