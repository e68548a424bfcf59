#include "solver/MemoryRepair.h"

#include "solver/ForcedGroups.h"
#include "solver/ProblemReducer.h"
#include "solver/UsageTree.h"

#include <algorithm>
#include <limits>

namespace tapestry {

Assignment repairMemory(const ShardingProblem& problem, Assignment x)
{
    if (!problem.usageLimit)
        return x;
    const std::int64_t limit = *problem.usageLimit;
    std::int64_t horizon = 1;
    for (const ProblemNode& node : problem.nodes)
        horizon = std::max(horizon, node.hi);
    std::vector<std::vector<std::pair<int, bool>>> incident(problem.nodes.size());  // (edge, node is u)
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        incident[static_cast<std::size_t>(problem.edges[e].u)].emplace_back(static_cast<int>(e), true);
        incident[static_cast<std::size_t>(problem.edges[e].v)].emplace_back(static_cast<int>(e), false);
    }
    UsageTree usage(horizon);
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        usage.add(problem.nodes[i].lo, problem.nodes[i].hi, problem.nodes[i].usages[static_cast<std::size_t>(x[i])]);

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

    // Nodes tied by forced edges (a layout that must match its neighbour's) move as one
    // group: a node moved alone would break its forced edges, a forbidden cost that only a
    // later search could mend. Per group and root strategy: whether the group may move
    // there with no member growing, and the change in the cost of its nodes and the
    // edges they touch. Kept until the group or a neighbour changes (thousands of nodes
    // live at a peak, thousands of steps: recomputing them all each step took minutes).
    const ForcedGroups groups = forcedGroups(problem);
    std::vector<std::vector<int>> members(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        members[static_cast<std::size_t>(groups.root[i])].push_back(static_cast<int>(i));
    struct GroupMove {
        bool possible = false;
        double delta = 0;
        bool forbidden = false;
    };
    std::vector<std::vector<GroupMove>> moves(problem.nodes.size());
    std::vector<int> version(problem.nodes.size(), 0);
    std::vector<int> evaluated(problem.nodes.size(), -1);
    const auto usageOf = [&](int node, int s) {
        return problem.nodes[static_cast<std::size_t>(node)].usages[static_cast<std::size_t>(s)];
    };
    // The cost of group g's nodes and of the edges they touch (each once) when its root
    // takes strategy s (-1: as it is).
    const auto groupCost = [&](std::size_t g, int s) {
        const auto strategyOf = [&](int node) {
            return s < 0 ? x[static_cast<std::size_t>(node)] : groups.fromRoot[static_cast<std::size_t>(node)][static_cast<std::size_t>(s)];
        };
        double cost = 0;
        for (const int m : members[g]) {
            const auto mi = static_cast<std::size_t>(m);
            const int sm = strategyOf(m);
            cost += static_cast<double>(problem.nodes[mi].costs[static_cast<std::size_t>(sm)]);
            for (const auto& [e, isU] : incident[mi]) {
                const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
                const int o = isU ? edge.v : edge.u;
                const bool inside = static_cast<std::size_t>(groups.root[static_cast<std::size_t>(o)]) == g;
                if (inside && !isU)
                    continue;  // counted from its other end
                const int so = inside ? strategyOf(o) : x[static_cast<std::size_t>(o)];
                const auto columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
                cost += static_cast<double>(
                    edge.costs[static_cast<std::size_t>(isU ? sm : so) * columns + static_cast<std::size_t>(isU ? so : sm)]);
            }
        }
        return cost;
    };
    const auto evaluate = [&](std::size_t g) {
        const double base = groupCost(g, -1);
        std::vector<GroupMove>& table = moves[g];
        table.assign(groups.fromRoot[g].size(), {});
        for (std::size_t s = 0; s < table.size(); ++s) {
            const bool possible = std::ranges::all_of(members[g], [&](int m) {
                const int sm = groups.fromRoot[static_cast<std::size_t>(m)][s];
                return sm >= 0
                       && (!problem.nodes[static_cast<std::size_t>(m)].usesMemory()
                           || usageOf(m, sm) <= usageOf(m, x[static_cast<std::size_t>(m)]));
            });
            if (!possible)
                continue;
            const double cost = groupCost(g, static_cast<int>(s));
            // A forbidden cost is a last resort, whatever memory it frees.
            table[s] = {true, cost - base, cost >= static_cast<double>(kCostCap) && base < static_cast<double>(kCostCap)};
        }
        evaluated[g] = version[g];
    };

    std::vector<int> alive;
    std::vector<std::pair<int, int>> moved;  // (node, its new strategy)
    while (usage.max(0, horizon) > limit) {
        const std::int64_t t = usage.argMax(0, horizon);
        double bestRatio = std::numeric_limits<double>::infinity();
        bool bestForbidden = true;
        std::size_t bestGroup = 0;
        int bestStrategy = -1;
        alive.clear();
        for (std::size_t k = static_cast<std::size_t>(t) + leaves; k >= 1; k /= 2)
            alive.insert(alive.end(), cover[k].begin(), cover[k].end());
        for (const int live : alive) {
            const auto i = static_cast<std::size_t>(live);
            const auto g = static_cast<std::size_t>(groups.root[i]);
            if (evaluated[g] != version[g])
                evaluate(g);
            const std::vector<GroupMove>& table = moves[g];
            for (std::size_t s = 0; s < table.size(); ++s) {
                if (!table[s].possible)
                    continue;
                // What the group frees at t is at least this node's share.
                const std::int64_t freed = usageOf(live, x[i]) - usageOf(live, groups.fromRoot[i][s]);
                if (freed <= 0)
                    continue;
                const double ratio = table[s].delta / static_cast<double>(freed);
                if (table[s].forbidden < bestForbidden || (table[s].forbidden == bestForbidden && ratio < bestRatio)) {
                    bestForbidden = table[s].forbidden;
                    bestRatio = ratio;
                    bestGroup = g;
                    bestStrategy = static_cast<int>(s);
                }
            }
        }
        if (bestStrategy < 0) {
            // No group frees memory here as a whole: a node alone, though it breaks a
            // forced edge (the smallest usages fit whenever anything does).
            std::size_t bestNode = 0;
            for (const int live : alive) {
                const auto i = static_cast<std::size_t>(live);
                const auto localCost = [&](int s) {
                    double cost = static_cast<double>(problem.nodes[i].costs[static_cast<std::size_t>(s)]);
                    for (const auto& [e, isU] : incident[i]) {
                        const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
                        const auto columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
                        const auto su = static_cast<std::size_t>(isU ? s : x[static_cast<std::size_t>(edge.u)]);
                        const auto sv = static_cast<std::size_t>(isU ? x[static_cast<std::size_t>(edge.v)] : s);
                        cost += static_cast<double>(edge.costs[su * columns + sv]);
                    }
                    return cost;
                };
                const double base = localCost(x[i]);
                for (int s = 0; s < problem.nodes[i].strategyCount(); ++s) {
                    const std::int64_t freed = usageOf(live, x[i]) - usageOf(live, s);
                    if (freed <= 0)
                        continue;
                    const double cost = localCost(s);
                    const double ratio = (cost - base) / static_cast<double>(freed);
                    const bool forbidden = cost >= static_cast<double>(kCostCap) && base < static_cast<double>(kCostCap);
                    if (bestStrategy < 0 || forbidden < bestForbidden || (forbidden == bestForbidden && ratio < bestRatio)) {
                        bestForbidden = forbidden;
                        bestRatio = ratio;
                        bestNode = i;
                        bestStrategy = s;
                    }
                }
            }
            if (bestStrategy < 0)
                break;  // nothing frees memory here: the problem is infeasible
            moved = {{static_cast<int>(bestNode), bestStrategy}};
        } else {
            moved.clear();
            for (const int m : members[bestGroup])
                moved.emplace_back(m, groups.fromRoot[static_cast<std::size_t>(m)][static_cast<std::size_t>(bestStrategy)]);
        }
        for (const auto& [m, to] : moved) {
            const auto mi = static_cast<std::size_t>(m);
            usage.add(problem.nodes[mi].lo, problem.nodes[mi].hi, usageOf(m, to) - usageOf(m, x[mi]));
            x[mi] = to;
            ++version[static_cast<std::size_t>(groups.root[mi])];
            for (const auto& [e, isU] : incident[mi]) {
                const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
                ++version[static_cast<std::size_t>(groups.root[static_cast<std::size_t>(isU ? edge.v : edge.u)])];
            }
        }
    }
    return x;
}

}  // namespace tapestry
