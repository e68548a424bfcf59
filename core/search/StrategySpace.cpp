#include "search/StrategySpace.h"

#include <algorithm>

namespace tapestry {

std::vector<NodeStrategy> strategiesFor(CoarseNodeKind kind, const std::vector<int>& axisSizes, bool expert)
{
    std::vector<AxisSplit> legal = legalSplits(kind);
    if (!expert)
        std::erase(legal, AxisSplit::Expert);
    static const std::vector<AxisSplit> unsplit = {AxisSplit::None};
    std::vector<NodeStrategy> out = {NodeStrategy{}};
    for (const int size : axisSizes) {
        const std::vector<AxisSplit>& options = size > 1 ? legal : unsplit;
        std::vector<NodeStrategy> next;
        next.reserve(out.size() * options.size());
        for (const NodeStrategy& prefix : out) {
            for (const AxisSplit split : options) {
                NodeStrategy extended = prefix;
                extended.axes.push_back(split);
                next.push_back(std::move(extended));
            }
        }
        out = std::move(next);
    }
    // Data parallelism everywhere first: a good incumbent for branch and bound.
    NodeStrategy allBatch;
    for (const int size : axisSizes)
        allBatch.axes.push_back(size > 1 ? AxisSplit::Batch : AxisSplit::None);
    const auto it = std::find(out.begin(), out.end(), allBatch);
    if (it != out.end())
        std::rotate(out.begin(), it, it + 1);
    return out;
}

}  // namespace tapestry
