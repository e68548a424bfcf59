#include "solver/ForcedGroups.h"

#include "solver/ProblemReducer.h"

#include <queue>

namespace tapestry {

bool isForced(const ShardingProblem& problem, const ProblemEdge& edge)
{
    const int rows = problem.nodes[static_cast<std::size_t>(edge.u)].strategyCount();
    const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
    std::vector<int> perColumn(static_cast<std::size_t>(columns), 0);
    for (int a = 0; a < rows; ++a) {
        int perRow = 0;
        for (int b = 0; b < columns; ++b)
            if (edge.costs[static_cast<std::size_t>(a * columns + b)] < kCostCap) {
                if (++perRow > 1 || ++perColumn[static_cast<std::size_t>(b)] > 1)
                    return false;
            }
    }
    return true;
}

ForcedGroups forcedGroups(const ShardingProblem& problem)
{
    const std::size_t n = problem.nodes.size();
    ForcedGroups groups;
    groups.root.assign(n, -1);
    groups.toRoot.resize(n);
    groups.fromRoot.resize(n);
    std::vector<std::vector<int>> incident(n);
    for (std::size_t e = 0; e < problem.edges.size(); ++e)
        if (isForced(problem, problem.edges[e])) {
            incident[static_cast<std::size_t>(problem.edges[e].u)].push_back(static_cast<int>(e));
            incident[static_cast<std::size_t>(problem.edges[e].v)].push_back(static_cast<int>(e));
        }
    for (std::size_t r = 0; r < n; ++r) {
        if (groups.root[r] >= 0)
            continue;
        groups.root[r] = static_cast<int>(r);
        groups.toRoot[r].resize(static_cast<std::size_t>(problem.nodes[r].strategyCount()));
        for (std::size_t s = 0; s < groups.toRoot[r].size(); ++s)
            groups.toRoot[r][s] = static_cast<int>(s);
        std::queue<int> pending;
        pending.push(static_cast<int>(r));
        while (!pending.empty()) {
            const int x = pending.front();
            pending.pop();
            for (const int e : incident[static_cast<std::size_t>(x)]) {
                const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
                const int y = edge.u == x ? edge.v : edge.u;
                if (groups.root[static_cast<std::size_t>(y)] >= 0)
                    continue;  // already placed: the edge stays an ordinary one within the group
                groups.root[static_cast<std::size_t>(y)] = static_cast<int>(r);
                const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
                std::vector<int>& map = groups.toRoot[static_cast<std::size_t>(y)];
                map.assign(static_cast<std::size_t>(problem.nodes[static_cast<std::size_t>(y)].strategyCount()), -1);
                for (std::size_t cell = 0; cell < edge.costs.size(); ++cell) {
                    if (edge.costs[cell] >= kCostCap)
                        continue;
                    const int a = static_cast<int>(cell) / columns;
                    const int b = static_cast<int>(cell) % columns;
                    const int sx = edge.u == x ? a : b;
                    const int sy = edge.u == x ? b : a;
                    map[static_cast<std::size_t>(sy)] = groups.toRoot[static_cast<std::size_t>(x)][static_cast<std::size_t>(sx)];
                }
                pending.push(y);
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = static_cast<std::size_t>(groups.root[i]);
        groups.fromRoot[i].assign(static_cast<std::size_t>(problem.nodes[r].strategyCount()), -1);
        for (std::size_t s = 0; s < groups.toRoot[i].size(); ++s)
            if (groups.toRoot[i][s] >= 0)
                groups.fromRoot[i][static_cast<std::size_t>(groups.toRoot[i][s])] = static_cast<int>(s);
    }
    return groups;
}

}  // namespace tapestry
