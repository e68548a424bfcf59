// Kernel and collective times whose efficiency depends on shape, against closed forms a
// reader can redo by hand (cost/KernelTime.h, cost/ZeroGatherOverhead.h).
#include "FoldedTestModel.h"
#include "CostChecks.h"
#include "cost/KernelTime.h"
#include "cost/ZeroGatherOverhead.h"

#include <QTest>

#include <cmath>

using namespace tapestry;
using namespace tapestry::test;

class KernelShapeTest : public QObject {
    Q_OBJECT

private slots:
    // GPT-3's fc1 (12288 x 49152, bf16) on one H100 with fp32 gradients accumulated over
    // micro-steps. At 2048 tokens both backward GEMMs are math-bound; at 256 tokens wgrad
    // moves the fp32 gradient twice (read, write: 8 bytes per weight) for 2 x 256 flops
    // per weight and is bound by HBM, while dgrad stays math-bound.
    void weightGradientTrafficBoundsThinMicroBatches()
    {
        const GpuSpec gpu = testCluster("dgx-h100x1").gpu;
        const double weights = 12288.0 * 49152;
        auto backward = [&](double tokens) {
            const double flops = 2 * tokens * weights;
            return linearBackwardSeconds(gpu, flops, tokens * 12288 * 2, weights * 2, tokens * 49152 * 2, weights * 8);
        };
        const double math = gpu.peakFlopsPerSecond * gpu.achievableFraction;
        QVERIFY(near(backward(2048), 2 * (2 * 2048 * weights) / math));
        const double dgrad = 2 * 256 * weights / math;
        const double wgrad = (256.0 * 12288 * 2 + 256.0 * 49152 * 2 + weights * 8) / (gpu.hbmBytesPerSecond * kHbmShare);
        QVERIFY(wgrad > dgrad);
        QVERIFY2(near(backward(256), dgrad + wgrad), qPrintable(QString::number(backward(256))));
    }

    // FlashAttention-2 on the H100 preset prices each call at its published rate (FlashAttention-3
    // paper, Figs. 5-6, H100 SXM5, head dim 128, TFLOP/s): causal forward 191 at 512 keys and
    // 335 at 16k, unmasked forward 309 and 370, unmasked backward 214 and 322; head dim 64's
    // unmasked forward 282 at 512. The preset's share, 0.374 of 989, is 370 TFLOP/s.
    void flashAttention2PricesAtItsPublishedH100Curve()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        const double scale = h100.peakFlopsPerSecond * h100.attentionFraction / 370e12;
        auto forward = [&](double keys, double causalSequence, double headDim) {
            return flops / fusedAttentionSeconds(h100, AttentionKernel::FlashAttention2, flops, {keys, causalSequence, headDim}) /
                   scale;
        };
        auto backward = [&](double keys, double headDim) {
            return kAttentionBackwardFlops * flops /
                   fusedAttentionBackwardSeconds(h100, AttentionKernel::FlashAttention2, flops, {keys, 0, headDim}) / scale;
        };
        QVERIFY(std::abs(scale - 1) < 0.001);
        QVERIFY2(near(forward(512, 512, 128), 191e12), qPrintable(QString::number(forward(512, 512, 128))));
        QVERIFY(near(forward(16384, 16384, 128), 335e12));
        QVERIFY(near(forward(512, 0, 128), 309e12));
        QVERIFY(near(forward(16384, 0, 128), 370e12));
        QVERIFY(near(backward(512, 128), 214e12));
        QVERIFY(near(backward(16384, 128), 322e12));
        QVERIFY(near(forward(512, 0, 64), 282e12));
        // Between the published lengths, log2-linear: 2,896 keys (2^11.5) halfway between 2k's 362 and 4k's 368.
        QVERIFY(near(forward(std::sqrt(2048.0 * 4096), 0, 128), 365e12));
        // Head dim 96 halfway between 64's and 128's 16k forward, 324 and 370.
        QVERIFY(near(forward(16384, 0, 96), 347e12));
        // Beyond 16k flat; below 512 on the hyperbola through 512's 309 and 1k's 350:
        // a = 1024 (1 - 309/350) / (2 x 309/350 - 1) = 157.4, so 256 keys reach 309 x 256 x 669.4 / (512 x 413.4).
        QVERIFY(near(forward(65536, 0, 128), 370e12));
        const double a = 1024 * (1 - 309.0 / 350) / (2 * 309.0 / 350 - 1);
        QVERIFY(near(forward(256, 0, 128), 309e12 * 256 * (512 + a) / (512 * (256 + a))));
        // More keys per call is never slower.
        double previous = 0;
        for (double keys = 64; keys <= 131072; keys *= 2) {
            const double rate = forward(keys, keys, 128);
            QVERIFY(rate >= previous);
            previous = rate;
        }
    }

    // cuDNN's kernels (Transformer Engine's) on H100 at their own published curves: causal forward
    // 315 TFLOP/s at 512 keys and 539 at 16k, unmasked backward 516 at 16k (FlashAttention-3 paper,
    // Figs. 5-6), through the preset's 0.374 x 1.608 (595 TFLOP/s unmasked forward at 16k). On
    // A100 no faster kernel than FlashAttention-2's is published: speed-up 1.
    void cudnnAttentionPricesAtItsPublishedH100Curve()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        QVERIFY(near(fusedAttentionShare(h100, AttentionKernel::FlashAttention2), 0.374));
        QVERIFY(near(fusedAttentionShare(h100, AttentionKernel::Cudnn), 0.374 * 1.608));
        const double flops = 1e12;
        const double scale = h100.peakFlopsPerSecond * 0.374 * 1.608 / 595e12;
        auto forward = [&](double keys) {
            return flops / fusedAttentionSeconds(h100, AttentionKernel::Cudnn, flops, {keys, keys, 128}) / scale;
        };
        QVERIFY(std::abs(scale - 1) < 0.002);
        QVERIFY(near(forward(512), 315e12));
        QVERIFY(near(forward(16384), 539e12));
        QVERIFY(near(kAttentionBackwardFlops * flops /
                         fusedAttentionBackwardSeconds(h100, AttentionKernel::Cudnn, flops, {16384, 0, 128}) / scale,
                     516e12));
        const GpuSpec a100 = testCluster("dgx-a100x1").gpu;
        QVERIFY(near(fusedAttentionShare(a100, AttentionKernel::Cudnn), fusedAttentionShare(a100, AttentionKernel::FlashAttention2)));
    }

    // A causal mask's loss, backward as forward: the forward's published causal over unmasked
    // rate at the sequence's length (head dim 128: 191 / 309 at 512 keys), whatever the pass.
    void causalMaskCostsBothPassesAlike()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        for (const AttentionKernel kernel : {AttentionKernel::FlashAttention2, AttentionKernel::Cudnn}) {
            const double forwardLoss = fusedAttentionSeconds(h100, kernel, flops, {512, 512, 128}) /
                                       fusedAttentionSeconds(h100, kernel, flops, {512, 0, 128});
            const double backwardLoss = fusedAttentionBackwardSeconds(h100, kernel, flops, {512, 512, 128}) /
                                        fusedAttentionBackwardSeconds(h100, kernel, flops, {512, 0, 128});
            QVERIFY(near(forwardLoss, backwardLoss));
        }
        QVERIFY(near(fusedAttentionSeconds(h100, AttentionKernel::FlashAttention2, flops, {512, 512, 128}) /
                         fusedAttentionSeconds(h100, AttentionKernel::FlashAttention2, flops, {512, 0, 128}),
                     309.0 / 191));
    }

    // Past the longest published length (16k) a causal mask's loss shrinks as 1 / length, the
    // share of the diagonal tiles: FlashAttention-2 head dim 128 loses 1 - 335 / 370 at 16k,
    // half that at 32k and a quarter at 64k, forward and backward alike; cuDNN from its own
    // 1 - 539 / 595. Continuous at 16k.
    void causalLossShrinksAsTheDiagonalPastTheCurves()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        auto causalShare = [&](AttentionKernel kernel, double keys, bool forward) {
            const AttentionCall causal{keys, keys, 128};
            const AttentionCall unmasked{keys, 0, 128};
            return forward ? fusedAttentionSeconds(h100, kernel, flops, unmasked) /
                                 fusedAttentionSeconds(h100, kernel, flops, causal)
                           : fusedAttentionBackwardSeconds(h100, kernel, flops, unmasked) /
                                 fusedAttentionBackwardSeconds(h100, kernel, flops, causal);
        };
        for (const bool forward : {true, false}) {
            QVERIFY(near(causalShare(AttentionKernel::FlashAttention2, 16384, forward), 335.0 / 370));
            QVERIFY(near(causalShare(AttentionKernel::FlashAttention2, 32768, forward), 1 - (1 - 335.0 / 370) / 2));
            QVERIFY(near(causalShare(AttentionKernel::FlashAttention2, 65536, forward), 1 - (1 - 335.0 / 370) / 4));
            QVERIFY(near(causalShare(AttentionKernel::Cudnn, 32768, forward), 1 - (1 - 539.0 / 595) / 2));
        }
        QVERIFY(near(causalShare(AttentionKernel::FlashAttention2, 16384 * 1.0001, true), 335.0 / 370, 1e-4));
    }

    // The Triton FlashAttention against FlashAttention-2 on the same call (FlashAttention-2
    // paper, sec. 4.1): its forward 1.4 times as long, its backward 2 times.
    void tritonAttentionLosesMostInTheBackward()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        for (const double keys : {512.0, 8192.0}) {
            const AttentionCall call{keys, keys, 128};
            QVERIFY(near(fusedAttentionSeconds(h100, AttentionKernel::Triton, flops, call),
                         1.4 * fusedAttentionSeconds(h100, AttentionKernel::FlashAttention2, flops, call)));
            QVERIFY(near(fusedAttentionBackwardSeconds(h100, AttentionKernel::Triton, flops, call),
                         2 * fusedAttentionBackwardSeconds(h100, AttentionKernel::FlashAttention2, flops, call)));
        }
    }

    // FlashAttention 1.x against FlashAttention-2 on the same call, both passes alike: their
    // published forward + backward rates' ratio (FlashAttention-2 paper, Fig. 4, A100,
    // TFLOP/s): unmasked head dim 128 at 512 keys 74 / 131, at 8k 98 / 203 (held beyond);
    // causal head dim 64 at 2k 77 / 140; log2-linear between lengths (1,448 keys halfway
    // between 1k's 91 / 181 and 2k's 95 / 196), head dim 96 halfway between 64's and 128's
    // (4k unmasked: 108 / 175 and 95 / 201).
    void flashAttention1RunsAtItsPublishedShareOfFlashAttention2()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        QVERIFY(near(fusedAttentionShare(h100, AttentionKernel::FlashAttention1), h100.attentionFraction));
        const double flops = 1e12;
        auto share = [&](double keys, double causalSequence, double headDim) {
            const AttentionCall call{keys, causalSequence, headDim};
            const double forward = fusedAttentionSeconds(h100, AttentionKernel::FlashAttention2, flops, call) /
                                   fusedAttentionSeconds(h100, AttentionKernel::FlashAttention1, flops, call);
            const double backward = fusedAttentionBackwardSeconds(h100, AttentionKernel::FlashAttention2, flops, call) /
                                    fusedAttentionBackwardSeconds(h100, AttentionKernel::FlashAttention1, flops, call);
            return near(forward, backward) ? forward : -1;
        };
        QVERIFY2(near(share(512, 0, 128), 74.0 / 131), qPrintable(QString::number(share(512, 0, 128))));
        QVERIFY(near(share(8192, 0, 128), 98.0 / 203));
        QVERIFY(near(share(65536, 0, 128), 98.0 / 203));
        QVERIFY(near(share(2048, 2048, 64), 77.0 / 140));
        QVERIFY(near(share(std::sqrt(1024.0 * 2048), 0, 128), (91.0 / 181 + 95.0 / 196) / 2));
        QVERIFY(near(share(4096, 0, 96), (108.0 / 175 + 95.0 / 201) / 2));
        // Below 512 keys the 512 ratio (the kernels' own curves fall as FlashAttention-2's).
        QVERIFY(near(share(256, 256, 128), 53.0 / 99));
    }

    // DeepSpeed's work around one parameter gather: the launch, 7 us per rank, and the
    // copy of the gathered tensor (read and written once) at HBM speed.
    void deepSpeedGatherOverheadGrowsWithTheRanks()
    {
        const GpuSpec gpu = testCluster("dgx-a100x1").gpu;
        const double bytes = 12288.0 * 12288 * 2;
        const double copy = 2 * bytes / (gpu.hbmBytesPerSecond * kHbmShare);
        QVERIFY(near(deepSpeedGatherOverheadSeconds(gpu, 8, bytes), 380e-6 + 8 * 7e-6 + copy));
        QVERIFY(near(deepSpeedGatherOverheadSeconds(gpu, 1536, bytes) - deepSpeedGatherOverheadSeconds(gpu, 768, bytes),
                     768 * 7e-6));
    }
};

QTEST_APPLESS_MAIN(KernelShapeTest)
#include "KernelShapeTest.moc"
