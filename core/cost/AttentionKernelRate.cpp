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

double atLength(const Rates& rates, double keys)
{
    if (keys >= kShortestLength * 32)
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

double rateAt(const HeadDimCurves& curves, AttentionPass pass, const AttentionCall& call)
{
    double rate = atLength(pass == AttentionPass::Forward ? curves.forward : curves.backward, call.keys);
    if (call.causalSequence > 0)
        rate *= atLength(curves.causalForward, call.causalSequence) / atLength(curves.forward, call.causalSequence);
    return rate;
}

}  // namespace

double attentionRateShape(AttentionKernel kernel, AttentionPass pass, const AttentionCall& call)
{
    const KernelCurves& curves = kernel == AttentionKernel::Cudnn ? kCudnn : kFlashAttention2;
    const double t = std::clamp((call.headDim - 64) / 64, 0.0, 1.0);
    const double rate = (1 - t) * rateAt(curves.headDim64, pass, call) + t * rateAt(curves.headDim128, pass, call);
    return rate / curves.headDim128.forward.back();
}

}  // namespace tapestry
