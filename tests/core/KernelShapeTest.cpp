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

    // Fused attention: a query tile pays two key tiles (256 keys) besides the keys it
    // streams, so 512 keys reach 2/3 of the long-sequence share, 2,048 keys 8/9, a ring
    // step over 256 keys 1/2; a causal mask adds half a tile per query row on the diagonal.
    void attentionReachesItsShareOnlyOverManyKeys()
    {
        QVERIFY(near(attentionTilingEfficiency(512, 0), 2.0 / 3));
        QVERIFY(near(attentionTilingEfficiency(2048, 0), 8.0 / 9));
        QVERIFY(near(attentionTilingEfficiency(256, 0), 0.5));
        QVERIFY(near(attentionTilingEfficiency(2048, 2048), 8.0 / 9 * 2048 / 2176));
        QVERIFY(near(attentionTilingEfficiency(256, 2048), 0.5 * 2048 / 2176));
        const GpuSpec gpu = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        QVERIFY(near(fusedAttentionSeconds(gpu, AttentionKernel::Fused, flops, 2048, 0),
                     flops / (gpu.peakFlopsPerSecond * gpu.attentionFraction) * 9 / 8));
        // More keys per call is never slower.
        double previous = fusedAttentionSeconds(gpu, AttentionKernel::Fused, flops, 64, 0);
        for (double keys = 128; keys <= 131072; keys *= 2) {
            const double seconds = fusedAttentionSeconds(gpu, AttentionKernel::Fused, flops, keys, 0);
            QVERIFY(seconds < previous);
            QVERIFY(seconds > flops / (gpu.peakFlopsPerSecond * gpu.attentionFraction));
            previous = seconds;
        }
    }

    // The implementation: on H100, cuDNN's kernels (Transformer Engine's) at 1.6x
    // FlashAttention-2's share, 0.337 x 1.6 of the peak, at every tiling efficiency alike; on
    // A100 no faster kernel than FlashAttention-2's, so both at 0.5.
    void cudnnAttentionIsFasterOnHopperOnly()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        QVERIFY(near(fusedAttentionShare(h100, AttentionKernel::Fused), 0.337));
        QVERIFY(near(fusedAttentionShare(h100, AttentionKernel::Cudnn), 0.337 * 1.6));
        const double flops = 1e12;
        for (const double keys : {512.0, 8192.0})
            QVERIFY(near(fusedAttentionSeconds(h100, AttentionKernel::Fused, flops, keys, keys) /
                             fusedAttentionSeconds(h100, AttentionKernel::Cudnn, flops, keys, keys),
                         1.6));
        const GpuSpec a100 = testCluster("dgx-a100x1").gpu;
        QVERIFY(near(fusedAttentionShare(a100, AttentionKernel::Cudnn), fusedAttentionShare(a100, AttentionKernel::Fused)));
        QVERIFY(near(fusedAttentionShare(a100, AttentionKernel::Cudnn), 0.5));
    }

    // The Triton FlashAttention against FlashAttention-2 on the same call (FlashAttention-2
    // paper, sec. 4.1): its forward 1.4 times as long, its backward 2 times; each backward
    // 2.5 times its forward's flops. FlashAttention-2's and cuDNN's backward run at their
    // forward's share.
    void tritonAttentionLosesMostInTheBackward()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        for (const double keys : {512.0, 8192.0}) {
            const double forward = fusedAttentionSeconds(h100, AttentionKernel::Fused, flops, keys, keys);
            QVERIFY(near(fusedAttentionBackwardSeconds(h100, AttentionKernel::Fused, flops, keys, keys), 2.5 * forward));
            QVERIFY(near(fusedAttentionSeconds(h100, AttentionKernel::Triton, flops, keys, keys), 1.4 * forward));
            QVERIFY(near(fusedAttentionBackwardSeconds(h100, AttentionKernel::Triton, flops, keys, keys),
                         2 * 2.5 * forward));
            const double cudnn = fusedAttentionSeconds(h100, AttentionKernel::Cudnn, flops, keys, keys);
            QVERIFY(near(fusedAttentionBackwardSeconds(h100, AttentionKernel::Cudnn, flops, keys, keys), 2.5 * cudnn));
        }
    }

    // The H100 preset's FlashAttention-2 share is the published kernel rate: at 16k causal
    // tokens, head dim 128, a forward and its backward price at 3.5 / (1/335 + 2.5/322) =
    // 325.6 TFLOP/s (FlashAttention-3 paper, Figs. 5-6), and cuDNN's at 1.6 times that
    // (521 against the same figures' 3.5 / (1/539 + 2.5/516) = 522.5).
    void flashAttention2PricesAtItsPublishedH100Rate()
    {
        const GpuSpec h100 = testCluster("dgx-h100x1").gpu;
        const double flops = 1e12;
        auto rate = [&](AttentionKernel kernel) {
            return 3.5 * flops / (fusedAttentionSeconds(h100, kernel, flops, 16384, 16384) +
                                  fusedAttentionBackwardSeconds(h100, kernel, flops, 16384, 16384));
        };
        QVERIFY2(std::abs(rate(AttentionKernel::Fused) / 325.6e12 - 1) < 0.001,
                 qPrintable(QString::number(rate(AttentionKernel::Fused))));
        QVERIFY(std::abs(rate(AttentionKernel::Cudnn) / 522.5e12 - 1) < 0.005);
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
