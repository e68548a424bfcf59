#include "cluster/CollectiveCost.h"

namespace tapestry {

namespace {

// NCCL runs all-gather and reduce-scatter as one ring over all n = k x m ranks (its
// tree algorithm is for all-reduce only: NCCL_ALGO in NCCL's documentation). A chunk
// passes every hop of that ring, so its latency is the sum of the hops' (NCCL's tuning
// model, src/graph/tuning.cc, adds intra- and inter-node hop latencies over the ring's
// steps): (n - k) alpha_intra + (k - 1) alpha_inter, not the hierarchy's
// (m - 1) alpha_intra + (k - 1) alpha_inter. The bandwidth terms stay the stages' (each
// node's traffic spreads over its m NICs). A measured curve keeps its own latency.
void useFlatRingLatency(CollectiveBreakdown& out, const Cluster& cluster, int ranks, int nodes)
{
    for (std::size_t i = 0; i < out.stageCount; ++i) {
        CollectiveStage& stage = out.stages[i];
        if (stage.seconds <= 0 || cluster.curve(stage.kind, stage.link) || stage.link != LinkClass::Intra)
            continue;
        stage.seconds += (ranks - nodes - (stage.groupSize - 1)) * cluster.link(stage.link).latencySeconds;
    }
}

}  // namespace

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
    if (const BusBandwidthCurve* curve = cluster_->curve(kind, link)) {
        result.seconds = factor * bytes / curve->busBytesPerSecondAt(bytes);
        return result;
    }
    const LinkSpec& spec = cluster_->link(link);
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
        useFlatRingLatency(out, *cluster_, group.size, k);
        break;
    case CollectiveKind::ReduceScatter:
        add(CollectiveKind::ReduceScatter, LinkClass::Intra, m, bytes);
        add(CollectiveKind::ReduceScatter, LinkClass::Inter, k, bytes / m);
        useFlatRingLatency(out, *cluster_, group.size, k);
        break;
    case CollectiveKind::AllToAll:
        add(CollectiveKind::AllToAll, LinkClass::Intra, m, bytes / k);
        add(CollectiveKind::AllToAll, LinkClass::Inter, k, bytes);
        break;
    }
    return out;
}

}  // namespace tapestry
