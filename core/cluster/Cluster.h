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

// The FP8 tensor cores of a GPU: dense FP8 FLOP/s, the share of it that FP8 GEMMs of
// training sizes reach, whether the tensor cores apply per-block scales themselves
// (MXFP8: 32-element blocks with an 8-bit exponent scale, Blackwell and later), and
// whether its FP8 GEMMs take operands in any layout. Hopper's take only the TN layout, so
// a per-tensor-scaled operand that backward reads transposed needs a transposed FP8 copy;
// data-center Blackwell's take any (Transformer Engine's nvte_is_non_tn_fp8_gemm_supported:
// compute capability 10.x and 13+), and its quantizers then write no transpose.
struct Fp8Rate {
    double peakFlopsPerSecond = 0;  // 0: no FP8 tensor cores
    double achievableFraction = 0.5;
    bool blockScaling = false;
    bool anyLayout = false;

    [[nodiscard]] bool supported() const { return peakFlopsPerSecond > 0; }
    bool operator==(const Fp8Rate&) const = default;
};

// One GPU model. peakFlopsPerSecond is the dense 16-bit (bf16/fp16) tensor-core rate;
// other precisions carry their own rate (fp8).
struct GpuSpec {
    std::string name;
    double peakFlopsPerSecond = 0;
    // Share of the peak that large matmuls (cuBLAS GEMMs) reach; see cost/KernelTime.h.
    double achievableFraction = 0.5;
    // Share of the peak that FlashAttention-2's fused attention kernels reach.
    double attentionFraction = 0.35;
    // How much faster cuDNN's fused attention (Transformer Engine's FusedAttention) runs than
    // FlashAttention-2's on this GPU: on Hopper its warp-specialized kernels overlap the
    // softmax with asynchronous tensor-core matmuls (FlashAttention-3 paper, Shah et al.
    // 2024, Figs. 5-6, H100 SXM5, head dim 128, 16k tokens: causal forward 539 vs 335
    // TFLOP/s, backward 516 vs 322: 1.6). 1 where no faster kernel is published (Ampere).
    double cudnnAttentionSpeedup = 1.0;
    std::uint64_t hbmBytes = 0;
    double hbmBytesPerSecond = 0;
    Fp8Rate fp8;

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
// NVLink domains (as on DGX-class machines). An NVLink domain is the GPUs one NVLink
// fabric joins: one node on DGX/HGX machines, a rack of 18 nodes x 4 GPUs on GB200
// NVL72. The intra link class is the fabric inside a domain, the inter class the NICs
// between domains. Optionally carries measured bus bandwidth curves that replace the
// alpha-beta formula for a collective on a link class.
struct Cluster {
    std::string name;
    int nodes = 1;
    int gpusPerNode = 1;
    // GPUs per NVLink domain, a whole number of nodes; 0: one node.
    int gpusPerNvlinkDomain = 0;
    GpuSpec gpu;
    LinkSpec intraNode;
    LinkSpec interNode;
    // Free-form assumptions and sources, carried from the JSON for display.
    std::vector<std::string> notes;
    std::map<std::pair<CollectiveKind, LinkClass>, BusBandwidthCurve> curves;

    [[nodiscard]] int deviceCount() const { return nodes * gpusPerNode; }
    // The GPUs one NVLink domain holds in this cluster: the configured domain (a node
    // without one); the whole cluster when it fits in one (part of a rack is one domain);
    // when it holds more GPUs than whole domains do (80 GPUs of racks of 72), the largest
    // size that divides both, so that every domain counted lies inside a real one.
    [[nodiscard]] int nvlinkDomainSize() const;
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
