#pragma once

#include "cluster/BusBandwidthCurve.h"
#include "cluster/CollectiveKind.h"
#include "cluster/LinkClass.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tapestry {

// One GPU model. FLOP/s are for the training dtype (bf16 by default), dense.
struct GpuSpec {
    std::string name;
    double peakFlopsPerSecond = 0;
    // Share of the peak that large matmuls (cuBLAS GEMMs) reach; see cost/KernelTime.h.
    double achievableFraction = 0.5;
    // Share of the peak that a fused attention kernel (FlashAttention) reaches.
    double attentionFraction = 0.35;
    std::uint64_t hbmBytes = 0;
    double hbmBytesPerSecond = 0;

    bool operator==(const GpuSpec&) const = default;
};

// A link class as one GPU sees it: bandwidth per GPU per direction as the ring
// formulas use it (achievable bus bandwidth, not the marketing peak) and per-message
// latency (the alpha of the alpha-beta model).
struct LinkSpec {
    double bytesPerSecond = 0;
    double latencySeconds = 0;

    bool operator==(const LinkSpec&) const = default;
};

// The physical cluster: nodes x gpusPerNode identical GPUs, one NIC per GPU between
// nodes (as on DGX-class machines). Optionally carries measured bus bandwidth curves
// that replace the alpha-beta formula for a collective on a link class.
struct Cluster {
    std::string name;
    int nodes = 1;
    int gpusPerNode = 1;
    GpuSpec gpu;
    LinkSpec intraNode;
    LinkSpec interNode;
    // Free-form assumptions and sources, carried from the JSON for display.
    std::vector<std::string> notes;
    std::map<std::pair<CollectiveKind, LinkClass>, BusBandwidthCurve> curves;

    [[nodiscard]] int deviceCount() const { return nodes * gpusPerNode; }
    [[nodiscard]] const LinkSpec& link(LinkClass linkClass) const
    {
        return linkClass == LinkClass::Intra ? intraNode : interNode;
    }
    // The calibration curve for this collective on this link class, or nullptr.
    [[nodiscard]] const BusBandwidthCurve* curve(CollectiveKind kind, LinkClass linkClass) const;

    // The same machines with a different node count (DGX-A100 x N from one preset); the
    // name says the count, e.g. "dgx-a100x1 (4 nodes)". Throws InvalidArgument for n < 1.
    [[nodiscard]] Cluster withNodes(int nodeCount) const;

    bool operator==(const Cluster&) const = default;
};

}  // namespace tapestry
