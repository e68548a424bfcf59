#pragma once

#include "cluster/Cluster.h"
#include "cluster/CollectiveKind.h"
#include "cluster/DeviceMesh.h"
#include "cluster/LinkClass.h"

#include <array>
#include <cstddef>

namespace tapestry {

// One step of a collective on one link class, e.g. the inter-node AllReduce of S/m
// bytes in the middle of a hierarchical AllReduce.
struct CollectiveStage {
    CollectiveKind kind = CollectiveKind::AllReduce;
    LinkClass link = LinkClass::Intra;
    int groupSize = 1;    // ranks taking part in this stage
    double bytes = 0;     // the S this stage's formula is applied to
    double seconds = 0;
};

// Per-device time of one collective, stage by stage (at most three, no allocation, so
// that millions of prices per second stay cheap). The total is the sum of the stages;
// stages run one after the other.
struct CollectiveBreakdown {
    std::array<CollectiveStage, 3> stages{};
    std::size_t stageCount = 0;

    [[nodiscard]] double seconds() const;
    [[nodiscard]] double seconds(LinkClass link) const;
};

// Prices collectives over one mesh axis on a cluster (cost-model.md, "Collectives").
// S is the per-device payload: the buffer for AllReduce, the gathered result for
// AllGather, the input for ReduceScatter, the send buffer for AllToAll.
// - A group inside one node (or across nodes with one GPU each) uses the ring formulas
//   on that link class: AllReduce 2(n-1)/n * S/B + 2(n-1) alpha, the others
//   (n-1)/n * S/B + (n-1) alpha.
// - A mixed group of k nodes x m GPUs is hierarchical (TAPS):
//     AllReduce     = ReduceScatter(intra, m, S) + AllReduce(inter, k, S/m) + AllGather(intra, m, S)
//     AllGather     = AllGather(inter, k, S/m) + AllGather(intra, m, S)
//     ReduceScatter = ReduceScatter(intra, m, S) + ReduceScatter(inter, k, S/m)
//     AllToAll      = AllToAll(intra, m, S/k) + AllToAll(inter, k, S)
//   (the inter stage moves the (k-1)/k share of S that leaves the node at the inter rate;
//   the intra stage moves the (m-1)/n share addressed to the node's other GPUs).
//   With equal links every decomposition reduces to the flat ring's bandwidth term.
//   AllGather and ReduceScatter keep those bandwidth terms but take the latency of the
//   one ring NCCL runs them on (it has no hierarchical algorithm for them): its
//   (n - k) intra-node and k - 1 inter-node hops, which dominate many small collectives
//   over hundreds of ranks.
// - When the cluster carries a curve for a stage's collective and link class, that
//   stage costs f * S / busbw(S) instead (f = busBandwidthFactor), latency included.
// A group of one device, or S = 0, costs nothing (no stages).
class CollectiveCost {
public:
    // Keeps a reference: the cluster must outlive this object.
    explicit CollectiveCost(const Cluster& cluster) : cluster_(&cluster) {}

    [[nodiscard]] CollectiveBreakdown price(CollectiveKind kind, const AxisGroup& group, double bytes) const;

    // One flat stage over `groupSize` ranks on one link class (curve or ring formula).
    [[nodiscard]] CollectiveStage stage(CollectiveKind kind, LinkClass link, int groupSize, double bytes) const;

private:
    const Cluster* cluster_;  // a pointer: copies assign
};

}  // namespace tapestry
