// Leave-one-source-out (core/validation/SourceHoldout): runs of two sources measured on
// one GPU whose GEMMs reach 0.5 of the peak (the preset says 0.6): each source, priced on
// the figures fitted to the other, lands within the fit's 1 % grid step, where the preset
// is off by more than 5 %; a GPU with one source is not held out, and says so.
#include "validation/SourceHoldout.h"

#include "cluster/ClusterFile.h"

#include <QTest>

#include <cmath>

using namespace tapestry;

namespace {

const std::filesystem::path kPresets =
    std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "resources" / "clusters";

// GPT-2 small, data parallel over one node's 8 GPUs, FlashAttention-2 (as ClusterCalibrationTest).
PublishedRun smallRun(const std::string& name, const std::string& source, std::int64_t sequence)
{
    PublishedRun run;
    run.name = name;
    run.source = source;
    run.model = {"gpt", 12, 768, 12, 12, 3072, 50257, sequence, "flash2"};
    run.hardware = {"H100-SXM5-80GB", 989, 8, 1, 400, 0};
    run.training.precision = "bf16";
    run.training.globalBatch = 64;
    run.training.microBatch = 8;
    run.training.dataParallel = 8;
    run.training.recompute = "none";
    run.training.optimizer = "adam";
    return run;
}

}  // namespace

class SourceHoldoutTest : public QObject {
    Q_OBJECT

private slots:
    void aSourceIsItsTextBeforeTheDetails()
    {
        PublishedRun run;
        run.source = "Narayanan et al., SC'21 (arXiv 2104.04473) Table 1; micro-batch from run_table_1.sh";
        QCOMPARE(publicationOf(run), std::string("Narayanan et al., SC'21"));
        run.source = "a blog post";
        QCOMPARE(publicationOf(run), std::string("a blog post"));
    }

    void eachSourceIsPricedOnTheFiguresOfTheOthers()
    {
        Cluster truth = loadClusterPreset(kPresets, "dgx-h100x1");
        truth.gpu.achievableFraction = 0.5;
        std::vector<PublishedRun> runs;
        for (const std::string source : {"paper A (table 1)", "paper B (table 2)"})
            for (const std::int64_t sequence : {512, 2048, 8192})
                runs.push_back(smallRun(source.substr(0, 7) + "-s" + std::to_string(sequence), source, sequence));
        for (PublishedRun& run : runs)
            run.measured.stepSeconds = PreparedRun(run).price(truth).stepSeconds;
        PublishedRun a100 = smallRun("a100", "paper A (table 3)", 2048);
        a100.hardware.gpu = "A100-SXM4-80GB";
        a100.hardware.peakTflops = 312;
        a100.measured.stepSeconds = 1;
        runs.push_back(a100);

        const std::vector<HeldOutSource> sources = holdOutEachSource(runs, kPresets);
        QCOMPARE(sources.size(), std::size_t{3});
        for (std::size_t i = 0; i < 2; ++i) {
            const HeldOutSource& held = sources[i];
            QCOMPARE(held.source, std::string(i == 0 ? "paper A" : "paper B"));
            QVERIFY2(held.notHeldOut.empty(), held.notHeldOut.c_str());
            QCOMPARE(held.fittedOn, std::vector<std::string>{i == 0 ? "paper B" : "paper A"});
            QCOMPARE(held.fittedRuns, std::size_t{3});
            QCOMPARE(held.heldOutErrors.size(), std::size_t{3});
            QVERIFY(!held.fitted.empty());
            QCOMPARE(held.fitted.front().figure, CalibrationFigure::Gemm);
            QVERIFY(std::abs(held.fitted.front().after / 0.5 - 1) <= 0.01 + 1e-12);
            QVERIFY(held.preset.medianAbsoluteError > 0.05);
            QVERIFY(held.heldOut.maximumAbsoluteError <= 0.01);
        }
        QCOMPARE(sources[2].gpu, std::string("A100-SXM4-80GB"));
        QVERIFY(sources[2].notHeldOut.find("the only source of A100-SXM4-80GB runs") != std::string::npos);
        QVERIFY(sources[2].heldOutErrors.empty());
        QCOMPARE(sources[2].presetErrors.size(), std::size_t{1});

        const ValidationSummary pooled = pooledHeldOutErrors(sources);
        QCOMPARE(pooled.priced, std::size_t{6});
        QVERIFY(pooled.maximumAbsoluteError <= 0.01);
    }
};

QTEST_GUILESS_MAIN(SourceHoldoutTest)
#include "SourceHoldoutTest.moc"
