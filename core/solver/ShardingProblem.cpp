#include "solver/ShardingProblem.h"

#include "base/Error.h"

#include <algorithm>
#include <limits>

namespace tapestry {

void ShardingProblem::validate(const std::string& fileName) const
{
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::InvalidShardingProblem, fileName, what); };
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const ProblemNode& node = nodes[i];
        const std::string where = "node " + std::to_string(i) + ": ";
        if (node.costs.empty())
            fail(where + "has no strategy");
        if (node.usages.size() != node.costs.size())
            fail(where + std::to_string(node.costs.size()) + " costs but " + std::to_string(node.usages.size())
                 + " usages");
        if (node.lo < 0 || node.hi < node.lo)
            fail(where + "interval [" + std::to_string(node.lo) + ", " + std::to_string(node.hi)
                 + ") is negative or reversed");
        for (const std::int64_t usage : node.usages)
            if (usage < 0)
                fail(where + "negative memory usage " + std::to_string(usage));
        for (const std::int64_t cost : node.costs)
            if (cost < 0)
                fail(where + "negative cost " + std::to_string(cost));
    }
    __extension__ unsigned __int128 usageTotal = 0;
    for (const ProblemNode& node : nodes)
        usageTotal += static_cast<std::uint64_t>(*std::max_element(node.usages.begin(), node.usages.end()));
    if (usageTotal > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        fail("the nodes' largest usages sum to more than 2^63 - 1: usage totals would overflow");
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const ProblemEdge& edge = edges[e];
        const std::string where = "edge " + std::to_string(e) + ": ";
        const int count = static_cast<int>(nodes.size());
        if (edge.u < 0 || edge.u >= count || edge.v < 0 || edge.v >= count)
            fail(where + "node index " + std::to_string(edge.u < 0 || edge.u >= count ? edge.u : edge.v)
                 + " is not among the " + std::to_string(count) + " nodes");
        if (edge.u == edge.v)
            fail(where + "joins node " + std::to_string(edge.u) + " to itself");
        const std::size_t expected = nodes[static_cast<std::size_t>(edge.u)].costs.size()
                                     * nodes[static_cast<std::size_t>(edge.v)].costs.size();
        for (const std::int64_t cost : edge.costs)
            if (cost < 0)
                fail(where + "negative cost " + std::to_string(cost));
        if (edge.costs.size() != expected)
            fail(where + "cost matrix has " + std::to_string(edge.costs.size()) + " entries, expected "
                 + std::to_string(expected) + " (" + std::to_string(nodes[static_cast<std::size_t>(edge.u)].costs.size())
                 + " x " + std::to_string(nodes[static_cast<std::size_t>(edge.v)].costs.size()) + ")");
    }
    if (usageLimit && *usageLimit < 0)
        fail("negative usage limit " + std::to_string(*usageLimit));
}

ShardingProblem withCompressedTime(const ShardingProblem& problem)
{
    std::vector<std::int64_t> ends;
    for (const ProblemNode& node : problem.nodes)
        if (node.usesMemory()) {
            ends.push_back(node.lo);
            ends.push_back(node.hi);
        }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    const auto rank = [&](std::int64_t time) {
        return static_cast<std::int64_t>(std::lower_bound(ends.begin(), ends.end(), time) - ends.begin());
    };
    ShardingProblem compact = problem;
    for (ProblemNode& node : compact.nodes) {
        if (node.usesMemory()) {
            node.lo = rank(node.lo);
            node.hi = rank(node.hi);
        } else {
            node.lo = node.hi = 0;
        }
    }
    return compact;
}

}  // namespace tapestry
