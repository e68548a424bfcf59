#include "cost/AttentionKernelRate.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tapestry {

namespace {

// TFLOP/s at 512, 1k, 2k, 4k, 8k and 16k keys (the bar labels of the FlashAttention-3
// paper's Figs. 5-6, H100 SXM5, BF16; causal runs count the computed half of the flops).
using Rates = std::array<double, 6>;
constexpr double kShortestLength = 512;
constexpr double kLongestLength = kShortestLength * 32;  // 16k keys, the last published bar

struct HeadDimCurves {
    Rates forward;        // Fig. 5, without causal mask
    Rates causalForward;  // Fig. 5, with causal mask
    Rates backward;       // Fig. 6, without causal mask
};

struct KernelCurves {
    HeadDimCurves headDim64;
    HeadDimCurves headDim128;
};

constexpr KernelCurves kFlashAttention2{
    {{282, 306, 318, 321, 322, 324}, {180, 229, 262, 284, 295, 299}, {198, 238, 264, 279, 287, 291}},
    {{309, 350, 362, 368, 370, 370}, {191, 260, 298, 319, 333, 335}, {214, 260, 291, 310, 318, 322}},
};

constexpr KernelCurves kCudnn{
    {{335, 373, 395, 408, 412, 413}, {225, 288, 334, 363, 379, 388}, {266, 348, 395, 417, 432, 433}},
    {{497, 574, 617, 609, 600, 595}, {315, 410, 484, 518, 529, 539}, {305, 408, 465, 499, 518, 516}},
};

// FlashAttention (1.x) against FlashAttention-2: their forward + backward TFLOP/s at 512,
// 1k, 2k, 4k and 8k keys in the FlashAttention-2 paper (Dao 2023, arXiv 2307.08691, Fig. 4:
// A100 80GB SXM4, BF16, batch x sequence = 16k tokens, hidden 2,048). Panel (c) was
// checked against the paper's source figure (figs/flash2_causal_True_hdim_64_fwd_bwd_speed.pdf,
// its 30 bar labels); panels (a), (b) and (d) are one third-party transcription of the bar
// labels, which agrees with (c)'s source where both exist but was not checked against their
// own figures. The 16k bars are not used: the transcriptions of panels (a), (b) and
// (d) at 16k disagree with themselves, and (c)'s 16k ratio, 171/97 = 1.76, is its 8k one
// (1.79) within 2 %, so the ratio is held flat from 8k. The paper has no per-pass
// (forward or backward) bars of FlashAttention that read reliably: both passes take the
// ratio of the sum. The A100's ratio is carried to every GPU (the H100 most): neither
// kernel uses Hopper's instructions (FlashAttention-2 "running the same implementation on
// H100 GPUs (using no special instructions...)", sec. 4.1), and what separates them is
// their work partitioning (one thread block per batch and head; the warps' split of K and
// V, non-matmul flops), which is the same code on both GPUs.
struct FlashAttentionVersions {
    std::array<double, 5> flashAttention;
    std::array<double, 5> flashAttention2;
};

struct FlashAttentionVersionsByMask {
    FlashAttentionVersions headDim64;
    FlashAttentionVersions headDim128;
};

constexpr FlashAttentionVersionsByMask kFlashAttentionVersionsUnmasked{
    {{91, 102, 104, 108, 110}, {132, 162, 171, 175, 176}},  // Fig. 4(a)
    {{74, 91, 95, 95, 98}, {131, 181, 196, 201, 203}},      // Fig. 4(b)
};

constexpr FlashAttentionVersionsByMask kFlashAttentionVersionsCausal{
    {{58, 70, 77, 87, 92}, {88, 119, 140, 156, 165}},  // Fig. 4(c)
    {{53, 72, 81, 87, 91}, {99, 131, 155, 182, 189}},  // Fig. 4(d)
};

double atLength(const Rates& rates, double keys)
{
    if (keys >= kLongestLength)
        return rates.back();
    if (keys < kShortestLength) {
        // rate(L) = R L / (L + a) through the 512 and 1k figures: a call this short pays
        // the fixed work per query tile over fewer keys.
        const double ratio = rates[0] / rates[1];
        const double length = std::max(keys, 1.0);
        if (ratio >= 1)
            return rates[0];
        if (ratio <= 0.5)
            return rates[0] * length / kShortestLength;
        const double a = 2 * kShortestLength * (1 - ratio) / (2 * ratio - 1);
        return rates[0] * length * (kShortestLength + a) / (kShortestLength * (length + a));
    }
    const double octave = std::log2(keys / kShortestLength);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(octave), rates.size() - 2);
    const double t = octave - static_cast<double>(i);
    return rates[i] + t * (rates[i + 1] - rates[i]);
}

// The causal over unmasked forward rate at `sequence`. Past the longest published length
// the loss shrinks as 1 / length: by then the unmasked curve is flat (its fixed costs per
// query tile paid off), and what a mask still costs is its diagonal tiles, computed whole
// but half used, n of the n (n + 1) / 2 tiles of a sequence of n tiles. An H200's own
// curves show it: at 32k keys both kernels' causal forward ran at 0.99-1.05 of their
// unmasked one (tests/data/kernels), where the 16k ratio held flat would say 0.91.
double causalShare(const HeadDimCurves& curves, double sequence)
{
    const double published = atLength(curves.causalForward, sequence) / atLength(curves.forward, sequence);
    if (sequence <= kLongestLength)
        return published;
    return 1 - (1 - published) * kLongestLength / sequence;
}

double rateAt(const HeadDimCurves& curves, AttentionPass pass, const AttentionCall& call)
{
    double rate = atLength(pass == AttentionPass::Forward ? curves.forward : curves.backward, call.keys);
    if (call.causalSequence > 0)
        rate *= causalShare(curves, call.causalSequence);
    return rate;
}

// FlashAttention's rate over FlashAttention-2's at `keys`: log2-interpolated between the
// published lengths, flat outside them.
double flashAttentionShare(const FlashAttentionVersions& versions, double keys)
{
    const double octave = std::clamp(std::log2(std::max(keys, 1.0) / kShortestLength), 0.0, 4.0);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(octave), 3);
    const double t = octave - static_cast<double>(i);
    const auto share = [&](std::size_t k) { return versions.flashAttention[k] / versions.flashAttention2[k]; };
    return share(i) + t * (share(i + 1) - share(i));
}

double flashAttentionShare(const FlashAttentionVersionsByMask& versions, const AttentionCall& call, double t)
{
    return (1 - t) * flashAttentionShare(versions.headDim64, call.keys) +
           t * flashAttentionShare(versions.headDim128, call.keys);
}

}  // namespace

double attentionRateShape(AttentionKernel kernel, AttentionPass pass, const AttentionCall& call)
{
    const KernelCurves& curves = kernel == AttentionKernel::Cudnn ? kCudnn : kFlashAttention2;
    const double t = std::clamp((call.headDim - 64) / 64, 0.0, 1.0);
    const double rate = (1 - t) * rateAt(curves.headDim64, pass, call) + t * rateAt(curves.headDim128, pass, call);
    const double shape = rate / curves.headDim128.forward.back();
    if (kernel != AttentionKernel::FlashAttention1)
        return shape;
    const auto& versions = call.causalSequence > 0 ? kFlashAttentionVersionsCausal : kFlashAttentionVersionsUnmasked;
    return shape * flashAttentionShare(versions, call, t);
}

}  // namespace tapestry
