#include "solver/ShardingProblem.h"

#include "base/Error.h"

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
    }
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
        if (edge.costs.size() != expected)
            fail(where + "cost matrix has " + std::to_string(edge.costs.size()) + " entries, expected "
                 + std::to_string(expected) + " (" + std::to_string(nodes[static_cast<std::size_t>(edge.u)].costs.size())
                 + " x " + std::to_string(nodes[static_cast<std::size_t>(edge.v)].costs.size()) + ")");
    }
    if (usageLimit && *usageLimit < 0)
        fail("negative usage limit " + std::to_string(*usageLimit));
}

}  // namespace tapestry
