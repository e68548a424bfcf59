#include "search/SearchOutcome.h"

#include <algorithm>

namespace tapestry {

std::shared_ptr<const PlanCandidate> SearchOutcome::best() const
{
    auto better = [this](const PlanCandidate& a, const PlanCandidate& b) {
        const bool aFits = a.memoryBytes() <= memoryLimitBytes;
        const bool bFits = b.memoryBytes() <= memoryLimitBytes;
        if (aFits != bFits)
            return aFits;
        return aFits ? a.stepSeconds() < b.stepSeconds() : a.memoryBytes() < b.memoryBytes();
    };
    std::shared_ptr<const PlanCandidate> chosen;
    for (const auto& candidate : candidates) {
        if (candidate->isSearched() && (!chosen || better(*candidate, *chosen)))
            chosen = candidate;
    }
    return chosen;
}

std::shared_ptr<const PlanCandidate> SearchOutcome::bestOn(std::size_t mesh) const
{
    for (std::size_t i = 0; i < candidates.size() && i < candidateMeshes.size(); ++i) {
        if (candidateMeshes[i] == mesh && candidates[i]->role == PlanCandidate::Role::Best)
            return candidates[i];
    }
    return nullptr;
}

std::size_t SearchOutcome::meshesSearched() const
{
    return static_cast<std::size_t>(
        std::count_if(meshes.begin(), meshes.end(), [](const MeshOutcome& mesh) { return mesh.search.has_value(); }));
}

const MeshOutcome* SearchOutcome::meshOf(const PlanCandidate& candidate) const
{
    for (std::size_t i = 0; i < candidates.size() && i < candidateMeshes.size(); ++i) {
        if (candidates[i].get() == &candidate)
            return &meshes.at(candidateMeshes[i]);
    }
    for (const MeshOutcome& mesh : meshes) {
        if (mesh.axes == planMeshAxes(candidate.plan))
            return &mesh;
    }
    return nullptr;
}

std::vector<std::shared_ptr<const PlanCandidate>> SearchOutcome::recordedCandidates() const
{
    std::vector<std::shared_ptr<const PlanCandidate>> kept;
    for (const auto& candidate : candidates) {
        if (candidate->role != PlanCandidate::Role::BestSoFar)
            kept.push_back(candidate);
    }
    return kept;
}

}  // namespace tapestry
