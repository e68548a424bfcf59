#pragma once

#include "cost/Workload.h"

#include <cstdint>

namespace tapestry {

// How fast a fused attention kernel runs on one call, against its own rate at long
// sequences: the published microbenchmark curves of FlashAttention-2's and cuDNN's kernels,
// forward and backward, by sequence length, head dimension and causal mask (the
// FlashAttention-3 paper, Shah et al. 2024, arXiv 2407.08608, Figs. 5-6: H100 SXM5, BF16,
// batch x sequence = 16k tokens, hidden 2,048; AttentionKernelRate.cpp holds the figures).
// The shape is the H100's on every GPU. A GPU's own figure (gpu.attentionFraction) scales
// it: the share of the peak that FlashAttention-2's forward reaches at 16k keys, head dim
// 128, without a mask. An H200's own curves through PyTorch (tests/data/kernels,
// test_measured_kernel_rates) follow this shape forward within 12 % from 1k keys and
// backward from 4k; its shorter backward calls ran slower by a time per call that does not
// grow with the length (0.04-0.25 ms per 16k tokens x hidden 2,048), which the curves leave
// out.
enum class AttentionPass : std::uint8_t { Forward, Backward };

struct AttentionCall {
    double keys = 0;            // keys one call streams past each query (a ring-attention step's chunk)
    double causalSequence = 0;  // the whole sequence under a causal mask; 0 without one
    double headDim = 128;
};

// The kernel's rate on `call` over its reference: the forward rate at 16k keys, head dim
// 128, no mask (FlashAttention-2: 370 TFLOP/s on H100; cuDNN: 595). The Triton
// FlashAttention takes FlashAttention-2's curves (KernelTime.h prices its slowdown).
// FlashAttention (1.x) has FlashAttention-2's reference and its curves times its published
// rate over FlashAttention-2's at the call's length, head dimension and mask (the
// FlashAttention-2 paper's Fig. 4, A100: 0.47 to 0.69). Between the published lengths (512
// to 16k keys, by octaves) the rate is interpolated in log2 of the length and flat beyond
// 16k; below 512 keys it falls as the 512 and 1k figures' hyperbola rate(L) ~ L / (L + a)
// goes on. Head dims between 64 and 128 interpolate; outside, the nearest of the two. A
// causal mask multiplies by the forward's published causal over unmasked rate at the whole
// sequence's length, backward alike (the FlashAttention-3 paper's backward figures are
// unmasked; the diagonal tiles and the skipped ones are the same in both passes); past 16k
// its loss shrinks as 1 / length, the share of the diagonal tiles.
[[nodiscard]] double attentionRateShape(AttentionKernel kernel, AttentionPass pass, const AttentionCall& call);

}  // namespace tapestry
