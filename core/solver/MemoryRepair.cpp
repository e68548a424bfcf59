#include "solver/MemoryRepair.h"

#include "solver/ProblemReducer.h"
#include "solver/TimeHorizon.h"
#include "solver/UsageTree.h"

#include <algorithm>
#include <limits>

namespace tapestry {

Assignment repairMemory(const ShardingProblem& problem, Assignment x)
{
    if (!problem.usageLimit)
        return x;
    const std::int64_t limit = *problem.usageLimit;
    const std::int64_t horizon = timeHorizon(problem);
    std::vector<std::vector<std::pair<int, bool>>> incident(problem.nodes.size());  // (edge, node is u)
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        incident[static_cast<std::size_t>(problem.edges[e].u)].emplace_back(static_cast<int>(e), true);
        incident[static_cast<std::size_t>(problem.edges[e].v)].emplace_back(static_cast<int>(e), false);
    }
    UsageTree usage(horizon);
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        usage.add(problem.nodes[i].lo, problem.nodes[i].hi, problem.nodes[i].usages[static_cast<std::size_t>(x[i])]);

    auto localCost = [&](std::size_t i, int s) {
        const ProblemNode& node = problem.nodes[i];
        double cost = static_cast<double>(node.costs[static_cast<std::size_t>(s)]);
        for (const auto& [e, isU] : incident[i]) {
            const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
            const auto columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
            const auto su = static_cast<std::size_t>(isU ? s : x[static_cast<std::size_t>(edge.u)]);
            const auto sv = static_cast<std::size_t>(isU ? x[static_cast<std::size_t>(edge.v)] : s);
            cost += static_cast<double>(edge.costs[su * columns + sv]);
        }
        return cost;
    };

    // Stabbing index: each interval is stored at the O(log T) segment-tree nodes that
    // cover it, so the nodes alive at t are found along one root-to-leaf path.
    std::size_t leaves = 1;
    while (leaves < static_cast<std::size_t>(horizon))
        leaves *= 2;
    std::vector<std::vector<int>> cover(2 * leaves);
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        if (!node.usesMemory() || node.strategyCount() < 2)
            continue;
        for (auto lo = static_cast<std::size_t>(node.lo) + leaves, hi = static_cast<std::size_t>(node.hi) + leaves; lo < hi;
             lo /= 2, hi /= 2) {
            if (lo & 1)
                cover[lo++].push_back(static_cast<int>(i));
            if (hi & 1)
                cover[--hi].push_back(static_cast<int>(i));
        }
    }

    // Each node's best freeing move depends only on its own and its neighbours'
    // strategies, so it is kept until one of them changes (thousands of nodes live at
    // a peak, thousands of steps: recomputing all of them each step took minutes).
    struct Option {
        double ratio = std::numeric_limits<double>::infinity();
        bool forbidden = true;
        int strategy = -1;  // none frees memory
    };
    std::vector<Option> options(problem.nodes.size());
    std::vector<char> stale(problem.nodes.size(), 1);
    const auto optionOf = [&](std::size_t i) {
        const ProblemNode& node = problem.nodes[i];
        const std::int64_t now = node.usages[static_cast<std::size_t>(x[i])];
        const double base = localCost(i, x[i]);
        Option best;
        for (int s = 0; s < node.strategyCount(); ++s) {
            const std::int64_t freed = now - node.usages[static_cast<std::size_t>(s)];
            if (freed <= 0)
                continue;
            const double cost = localCost(i, s);
            const double ratio = (cost - base) / static_cast<double>(freed);
            // A forbidden cost is a last resort, whatever memory it frees.
            const bool forbidden = cost >= static_cast<double>(kCostCap) && base < static_cast<double>(kCostCap);
            if (forbidden < best.forbidden || (forbidden == best.forbidden && ratio < best.ratio))
                best = {ratio, forbidden, s};
        }
        return best;
    };

    std::vector<int> alive;
    while (usage.max(0, horizon) > limit) {
        const std::int64_t t = usage.argMax(0, horizon);
        Option best;
        std::size_t bestNode = 0;
        alive.clear();
        for (std::size_t k = static_cast<std::size_t>(t) + leaves; k >= 1; k /= 2)
            alive.insert(alive.end(), cover[k].begin(), cover[k].end());
        for (const int live : alive) {
            const auto i = static_cast<std::size_t>(live);
            if (stale[i]) {
                options[i] = optionOf(i);
                stale[i] = 0;
            }
            const Option& option = options[i];
            if (option.strategy >= 0
                && (option.forbidden < best.forbidden || (option.forbidden == best.forbidden && option.ratio < best.ratio))) {
                best = option;
                bestNode = i;
            }
        }
        if (best.strategy < 0)
            break;  // nothing frees memory here: the problem is infeasible
        const ProblemNode& node = problem.nodes[bestNode];
        usage.add(node.lo, node.hi,
                  node.usages[static_cast<std::size_t>(best.strategy)] - node.usages[static_cast<std::size_t>(x[bestNode])]);
        x[bestNode] = best.strategy;
        stale[bestNode] = 1;
        for (const auto& [e, isU] : incident[bestNode]) {
            const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
            stale[static_cast<std::size_t>(isU ? edge.v : edge.u)] = 1;
        }
    }
    return x;
}

}  // namespace tapestry
