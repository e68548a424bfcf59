// The cost model's kernel prices against one GPU's own measurement, wherever the model
// claims to follow it: bench/gpu/kernel_rates.py on an H200 SXM (tests/data/kernels/README.md
// says how it was measured), priced on the dgx-h200x1 preset. Where the model does not
// follow the measurement (backward attention below 4k keys, weight gradients over 512
// tokens or fewer, LayerNorm, GeLU and torch.softmax below the HBM share) the tests say
// nothing; the README's kernel table lists those gaps with their sizes.
#include "FoldedTestModel.h"
#include "CostChecks.h"
#include "base/JsonReader.h"
#include "base/TextFile.h"
#include "cost/KernelTime.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tapestry;
using namespace tapestry::test;

namespace {

const JsonValue& member(const JsonValue& object, const char* key)
{
    const JsonValue* value = object.find(key);
    if (value == nullptr)
        throw std::runtime_error(std::string("h200-sxm-torch2.11.json: no member '") + key + "'");
    return *value;
}

double number(const JsonValue& object, const char* key)
{
    return member(object, key).asNumber();
}

const JsonValue& measurement()
{
    static const JsonValue root =
        parseJson(readTextFile(testDataFile("kernels/h200-sxm-torch2.11.json")), "h200-sxm-torch2.11.json");
    return root;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Seconds per element of an in-place bf16 add (read, read, write) at the file's own rate.
double addSecondsPerElement()
{
    const JsonValue& add = member(member(measurement(), "memory_bound"), "add");
    return number(add, "seconds") / (number(add, "bytes") / 6);
}

// A call's backward seconds as the kernel ran them: less the in-place adds of the q, k and
// v gradients into .grad where the script timed them too (the file's
// backward_includes_grad_accumulation).
double backwardSeconds(const JsonValue& row, double qElements)
{
    const double timed = number(row, "backward_s");
    if (!member(measurement(), "backward_includes_grad_accumulation").asBool())
        return timed;
    return timed - 3 * qElements * addSecondsPerElement();
}

// Calls faster than twice the smallest GEMM's (128 x 512 x 512, under a microsecond of
// math) time the host's eager PyTorch overhead, not the GPU.
double hostFloorSeconds()
{
    const JsonValue& first = member(measurement(), "gemm").asArray().front();
    return 2 * std::min({number(first, "forward_s"), number(first, "dgrad_s"), number(first, "wgrad_s")});
}

GpuSpec h200()
{
    return testCluster("dgx-h200x1").gpu;
}

}  // namespace

class MeasuredKernelRatesTest : public QObject {
    Q_OBJECT

private slots:
    // The preset's two attention figures are the measurement's reference calls: FlashAttention-2
    // and cuDNN forward at 16k keys, head dim 128, no mask, 351 and 657 TFLOP/s.
    void h200AttentionFiguresAreItsMeasuredReferences()
    {
        const GpuSpec gpu = h200();
        int compared = 0;
        for (const JsonValue& row : member(measurement(), "attention").asArray()) {
            if (number(row, "keys") != 16384 || number(row, "head_dim") != 128 || member(row, "causal").asBool())
                continue;
            ++compared;
            const AttentionKernel kernel =
                member(row, "kernel").asString() == "cudnn" ? AttentionKernel::Cudnn : AttentionKernel::FlashAttention2;
            const double flops = number(row, "forward_flops");
            const double priced = fusedAttentionSeconds(gpu, kernel, flops, {16384, 0, 128});
            QVERIFY2(near(priced, number(row, "forward_s"), 0.005),
                     qPrintable(QString::fromStdString(member(row, "kernel").asString())));
        }
        QCOMPARE(compared, 2);  // one row per kernel
    }

    // Each call of the attention section priced at the H100 curves (the FlashAttention-3
    // paper's) from the H200's reference, its rate against the measured one. Forward: within 12 % from
    // 1k keys on, the largest cuDNN head dim 128 at 1k (+10.5 %), within 20 % at 512
    // (FlashAttention-2 head dim 64 causal, +18.6 %); 32k keys included, where a causal mask
    // costs what its diagonal tiles do. Backward: within 12 % from 4k keys on (FlashAttention-2
    // head dim 128 causal at 16k, -11.4 %). Shorter backward calls measured slower than the
    // curves by a time that does not grow with the length (0.04-0.25 ms per 16k tokens,
    // both kernels): a per-call cost of PyTorch's backward path the curves do not hold.
    // The bands were set from this file, just above its largest errors: a guard against
    // regressions, not an accuracy claim.
    void attentionFollowsTheMeasuredCurvesOnHopper()
    {
        const GpuSpec gpu = h200();
        int compared = 0;
        for (const JsonValue& row : member(measurement(), "attention").asArray()) {
            const AttentionKernel kernel =
                member(row, "kernel").asString() == "cudnn" ? AttentionKernel::Cudnn : AttentionKernel::FlashAttention2;
            const double keys = number(row, "keys");
            const double headDim = number(row, "head_dim");
            const bool causal = member(row, "causal").asBool();
            const AttentionCall call{keys, causal ? keys : 0, headDim};
            const double flops = number(row, "forward_flops");
            const double qElements = number(row, "batch") * number(row, "heads") * keys * headDim;
            const QString what = QStringLiteral("%1 d%2 %3 %4 keys")
                                     .arg(QString::fromStdString(member(row, "kernel").asString()))
                                     .arg(headDim)
                                     .arg(causal ? QStringLiteral("causal") : QStringLiteral("unmasked"))
                                     .arg(keys);
            const double forward = number(row, "forward_s") / fusedAttentionSeconds(gpu, kernel, flops, call);
            QVERIFY2(std::abs(forward - 1) <= (keys >= 1024 ? 0.12 : 0.20),
                     qPrintable(what + QStringLiteral(" forward rate priced/measured %1").arg(forward)));
            if (keys >= 4096) {
                const double backward =
                    backwardSeconds(row, qElements) / fusedAttentionBackwardSeconds(gpu, kernel, flops, call);
                QVERIFY2(std::abs(backward - 1) <= 0.12,
                         qPrintable(what + QStringLiteral(" backward rate priced/measured %1").arg(backward)));
            }
            ++compared;
        }
        QCOMPARE(compared, 2 * 2 * 2 * 7);  // two kernels, two head dims, with and without mask, 512-32k keys
    }

    // The GEMM roofline's shape: each measured cuBLAS GEMM's rate over the median large one's
    // (all three dimensions >= 2048: 701 TFLOP/s) against the priced rate over the priced
    // large one (the preset's 0.6 x 989). Forward and dgrad at every token count, wgrad from
    // 1,024 tokens: median within 3 %, 90 % of the shapes within 15 %. (wgrad over 128-512
    // tokens runs at a median 0.62 of what the roofline says: the weight gradient written after
    // so short a reduction is not hidden; not priced.) The level is the step's, not the
    // kernel's: the preset's GEMM rate is below the measured large GEMMs' median. Bands and
    // the 1,024-token wgrad cut were set from this file.
    void gemmEfficiencyFollowsTheMeasuredShapes()
    {
        const GpuSpec gpu = h200();
        const double floor = hostFloorSeconds();
        struct Gemm {
            double rows, columns, reduction, seconds;
            bool weightGradient;
        };
        std::vector<Gemm> gemms;
        for (const JsonValue& row : member(measurement(), "gemm").asArray()) {
            const double m = number(row, "tokens"), n = number(row, "out"), k = number(row, "in");
            gemms.push_back({m, n, k, number(row, "forward_s"), false});  // Y[m,n] = X[m,k] W
            gemms.push_back({m, k, n, number(row, "dgrad_s"), false});    // dX[m,k] = dY[m,n] Wᵀ
            gemms.push_back({n, k, m, number(row, "wgrad_s"), true});     // dW[n,k] = dYᵀ X, over the tokens
        }
        auto rate = [](const Gemm& g, double seconds) { return 2 * g.rows * g.columns * g.reduction / seconds; };
        auto priced = [&](const Gemm& g) {
            return matmulSeconds(gpu, 2 * g.rows * g.columns * g.reduction,
                                 2 * (g.rows * g.reduction + g.reduction * g.columns + g.rows * g.columns));
        };
        std::vector<double> large;
        for (const Gemm& g : gemms)
            if (!g.weightGradient && std::min({g.rows, g.columns, g.reduction}) >= 2048 && g.seconds > floor)
                large.push_back(rate(g, g.seconds));
        const double measuredLarge = median(large);
        const double pricedLarge = gpu.peakFlopsPerSecond * gpu.achievableFraction;
        QVERIFY(pricedLarge < measuredLarge);
        std::vector<double> shapeRatios;
        for (const Gemm& g : gemms) {
            if (g.seconds <= floor || (g.weightGradient && g.reduction < 1024))
                continue;
            shapeRatios.push_back((rate(g, g.seconds) / measuredLarge) / (rate(g, priced(g)) / pricedLarge));
        }
        QVERIFY(shapeRatios.size() > 250);
        QVERIFY2(std::abs(median(shapeRatios) - 1) <= 0.03, qPrintable(QString::number(median(shapeRatios))));
        const auto within = std::count_if(shapeRatios.begin(), shapeRatios.end(),
                                          [](double r) { return std::abs(r - 1) <= 0.15; });
        QVERIFY2(within >= 0.9 * static_cast<double>(shapeRatios.size()),
                 qPrintable(QStringLiteral("%1 of %2").arg(within).arg(shapeRatios.size())));
    }

    // FP8 GEMMs reach the share of their peak that BF16 ones reach of theirs (the preset gives
    // both 0.6): at 8192^3 torch._scaled_mm ran 1,416 TFLOP/s and BF16 708 (the mean of forward,
    // dgrad and wgrad), twice as fast, as priced, within 2 %.
    void fp8GemmsRunAtTheBf16Share()
    {
        const GpuSpec gpu = h200();
        double fp8Seconds = 0;
        for (const JsonValue& row : member(measurement(), "fp8_gemm").asArray())
            if (number(row, "tokens") == 8192 && number(row, "in") == 8192)
                fp8Seconds = number(row, "seconds");
        double bf16Seconds = 0;
        for (const JsonValue& row : member(measurement(), "gemm").asArray())
            if (number(row, "tokens") == 8192 && number(row, "in") == 8192 && number(row, "out") == 8192)
                bf16Seconds = (number(row, "forward_s") + number(row, "dgrad_s") + number(row, "wgrad_s")) / 3;
        QVERIFY(fp8Seconds > 0 && bf16Seconds > 0);
        const double pricedSpeedUp = gpu.fp8.peakFlopsPerSecond * gpu.fp8.achievableFraction /
                                     (gpu.peakFlopsPerSecond * gpu.achievableFraction);
        QVERIFY2(near(bf16Seconds / fp8Seconds, pricedSpeedUp, 0.02), qPrintable(QString::number(bf16Seconds / fp8Seconds)));
    }

    // No memory-bound kernel is priced faster than the GPU copies or adds: kHbmShare of 4.8 TB/s
    // (3.84) is below the measured copy's 4.15 and add's 4.27 TB/s.
    void memoryBoundKernelsAreNotPricedFasterThanACopy()
    {
        const GpuSpec gpu = h200();
        for (const char* kernel : {"copy", "add"}) {
            const JsonValue& row = member(member(measurement(), "memory_bound"), kernel);
            QVERIFY2(memoryBoundSeconds(gpu, number(row, "bytes")) > number(row, "seconds"), kernel);
        }
    }

    // Unfused attention's dropout of the scores (torch.nn.Dropout, p = 0.1) priced as a kernel
    // of its own, 5 bytes per score element each way (2 + 2 + its 1-byte mask), against the
    // measured difference between p = 0.1 and p = 0 at 512-4k keys, forward + backward: within
    // 20 % (the model 15 % fast at 1k). Forward alone ran at about 3.0 TB/s (random numbers),
    // backward at about 4.3, so only the pair is compared.
    void unfusedDropoutCostsWhatItsBytesSay()
    {
        const GpuSpec gpu = h200();
        std::vector<const JsonValue*> without;
        for (const JsonValue& row : member(measurement(), "unfused_attention").asArray())
            if (number(row, "dropout") == 0)
                without.push_back(&row);
        int compared = 0;
        for (const JsonValue& row : member(measurement(), "unfused_attention").asArray()) {
            if (number(row, "dropout") == 0)
                continue;
            const double keys = number(row, "keys");
            const auto base = std::find_if(without.begin(), without.end(),
                                           [&](const JsonValue* w) { return number(*w, "keys") == keys; });
            QVERIFY(base != without.end());
            const double measured = number(row, "forward_s") + number(row, "backward_s") -
                                    number(**base, "forward_s") - number(**base, "backward_s");
            const double scores = number(row, "batch") * number(row, "heads") * keys * keys;
            const double priced = 2 * memoryBoundSeconds(gpu, 5 * scores);
            QVERIFY2(std::abs(priced / measured - 1) <= 0.20,
                     qPrintable(QStringLiteral("%1 keys: priced/measured %2").arg(keys).arg(priced / measured)));
            ++compared;
        }
        QCOMPARE(compared, 4);
    }
};

QTEST_GUILESS_MAIN(MeasuredKernelRatesTest)
#include "MeasuredKernelRatesTest.moc"
