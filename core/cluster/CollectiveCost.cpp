#include "cluster/CollectiveCost.h"

namespace tapestry {

double CollectiveBreakdown::seconds() const
{
    double total = 0;
    for (std::size_t i = 0; i < stageCount; ++i)
        total += stages[i].seconds;
    return total;
}

double CollectiveBreakdown::seconds(LinkClass link) const
{
    double total = 0;
    for (std::size_t i = 0; i < stageCount; ++i) {
        if (stages[i].link == link)
            total += stages[i].seconds;
    }
    return total;
}

CollectiveStage CollectiveCost::stage(CollectiveKind kind, LinkClass link, int groupSize, double bytes) const
{
    CollectiveStage result{kind, link, groupSize, bytes, 0.0};
    if (groupSize <= 1 || bytes <= 0)
        return result;
    const double factor = busBandwidthFactor(kind, groupSize);
    if (const BusBandwidthCurve* curve = cluster_.curve(kind, link)) {
        result.seconds = factor * bytes / curve->busBytesPerSecondAt(bytes);
        return result;
    }
    const LinkSpec& spec = cluster_.link(link);
    // Ring steps: 2(n-1) for AllReduce (reduce-scatter then all-gather), n-1 otherwise.
    const double steps = (kind == CollectiveKind::AllReduce ? 2.0 : 1.0) * (groupSize - 1);
    result.seconds = factor * bytes / spec.bytesPerSecond + steps * spec.latencySeconds;
    return result;
}

CollectiveBreakdown CollectiveCost::price(CollectiveKind kind, const AxisGroup& group, double bytes) const
{
    CollectiveBreakdown out;
    if (group.size <= 1 || bytes <= 0)
        return out;
    auto add = [&](CollectiveKind stageKind, LinkClass link, int n, double stageBytes) {
        out.stages[out.stageCount++] = stage(stageKind, link, n, stageBytes);
    };
    switch (group.span) {
    case GroupSpan::IntraNode:
        add(kind, LinkClass::Intra, group.size, bytes);
        return out;
    case GroupSpan::InterNode:
        add(kind, LinkClass::Inter, group.size, bytes);
        return out;
    case GroupSpan::Mixed:
        break;
    }
    const int k = group.nodes;
    const int m = group.gpusPerNode;
    switch (kind) {
    case CollectiveKind::AllReduce:
        add(CollectiveKind::ReduceScatter, LinkClass::Intra, m, bytes);
        add(CollectiveKind::AllReduce, LinkClass::Inter, k, bytes / m);
        add(CollectiveKind::AllGather, LinkClass::Intra, m, bytes);
        break;
    case CollectiveKind::AllGather:
        add(CollectiveKind::AllGather, LinkClass::Inter, k, bytes / m);
        add(CollectiveKind::AllGather, LinkClass::Intra, m, bytes);
        break;
    case CollectiveKind::ReduceScatter:
        add(CollectiveKind::ReduceScatter, LinkClass::Intra, m, bytes);
        add(CollectiveKind::ReduceScatter, LinkClass::Inter, k, bytes / m);
        break;
    case CollectiveKind::AllToAll:
        add(CollectiveKind::AllToAll, LinkClass::Intra, m, bytes / k);
        add(CollectiveKind::AllToAll, LinkClass::Inter, k, bytes);
        break;
    }
    return out;
}

}  // namespace tapestry
