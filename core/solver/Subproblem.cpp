#include "solver/Subproblem.h"

#include "solver/TimeHorizon.h"

#include <algorithm>

namespace tapestry {

Subproblem::Subproblem(const ShardingProblem& problem, const Assignment& assignment, const std::vector<int>& freeNodes)
    : freeNodes_(freeNodes)
{
    std::vector<int> local(problem.nodes.size(), -1);
    for (std::size_t k = 0; k < freeNodes.size(); ++k)
        local[static_cast<std::size_t>(freeNodes[k])] = static_cast<int>(k);
    sub_.name = problem.name;
    sub_.usageLimit = problem.usageLimit;
    for (const int node : freeNodes) {
        sub_.nodes.push_back(problem.nodes[static_cast<std::size_t>(node)]);
        current_.push_back(assignment[static_cast<std::size_t>(node)]);
    }
    for (const ProblemEdge& edge : problem.edges) {
        const int u = local[static_cast<std::size_t>(edge.u)];
        const int v = local[static_cast<std::size_t>(edge.v)];
        if (u < 0 && v < 0)
            continue;
        const auto columns = static_cast<std::size_t>(problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount());
        if (u >= 0 && v >= 0) {
            sub_.edges.push_back(ProblemEdge{u, v, edge.costs});
        } else if (u >= 0) {
            ProblemNode& node = sub_.nodes[static_cast<std::size_t>(u)];
            const auto fixed = static_cast<std::size_t>(assignment[static_cast<std::size_t>(edge.v)]);
            for (std::size_t s = 0; s < node.costs.size(); ++s)
                node.costs[s] = std::min(node.costs[s] + edge.costs[s * columns + fixed], std::int64_t{1} << 62);
        } else {
            ProblemNode& node = sub_.nodes[static_cast<std::size_t>(v)];
            const auto fixed = static_cast<std::size_t>(assignment[static_cast<std::size_t>(edge.u)]);
            for (std::size_t s = 0; s < node.costs.size(); ++s)
                node.costs[s] = std::min(node.costs[s] + edge.costs[fixed * columns + s], std::int64_t{1} << 62);
        }
    }
    if (!problem.usageLimit)
        return;

    // Background usage of the fixed nodes, as a running sum over time.
    const std::int64_t horizon = timeHorizon(problem);
    std::vector<std::int64_t> background(static_cast<std::size_t>(horizon) + 1, 0);
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        if (local[i] >= 0 || !node.usesMemory())
            continue;
        const std::int64_t usage = node.usages[static_cast<std::size_t>(assignment[i])];
        background[static_cast<std::size_t>(node.lo)] += usage;
        background[static_cast<std::size_t>(node.hi)] -= usage;
    }
    for (std::size_t t = 1; t < background.size(); ++t)
        background[t] += background[t - 1];
    std::vector<std::int64_t> cuts;
    for (const int node : freeNodes) {
        const ProblemNode& n = problem.nodes[static_cast<std::size_t>(node)];
        if (n.usesMemory()) {
            cuts.push_back(n.lo);
            cuts.push_back(n.hi);
        }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const auto from = background.begin() + cuts[k];
        const std::int64_t most = *std::max_element(from, background.begin() + cuts[k + 1]);
        if (most > 0) {
            sub_.nodes.push_back(ProblemNode{cuts[k], cuts[k + 1], {0}, {most}});
            current_.push_back(0);
        }
    }
}

void Subproblem::apply(const Assignment& subAssignment, Assignment& assignment) const
{
    for (std::size_t k = 0; k < freeNodes_.size(); ++k)
        assignment[static_cast<std::size_t>(freeNodes_[k])] = subAssignment[k];
}

}  // namespace tapestry
