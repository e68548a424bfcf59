#include "search/StrategySpace.h"

#include <algorithm>

namespace tapestry {

std::vector<NodeStrategy> strategiesFor(CoarseNodeKind kind, std::size_t axisCount)
{
    const std::vector<AxisSplit>& legal = legalSplits(kind);
    std::vector<NodeStrategy> out = {NodeStrategy{}};
    for (std::size_t a = 0; a < axisCount; ++a) {
        std::vector<NodeStrategy> next;
        next.reserve(out.size() * legal.size());
        for (const NodeStrategy& prefix : out) {
            for (const AxisSplit split : legal) {
                NodeStrategy extended = prefix;
                extended.axes.push_back(split);
                next.push_back(std::move(extended));
            }
        }
        out = std::move(next);
    }
    // Data parallelism everywhere first: a good incumbent for branch and bound.
    const NodeStrategy allBatch{std::vector<AxisSplit>(axisCount, AxisSplit::Batch)};
    const auto it = std::find(out.begin(), out.end(), allBatch);
    if (it != out.end())
        std::rotate(out.begin(), it, it + 1);
    return out;
}

}  // namespace tapestry
