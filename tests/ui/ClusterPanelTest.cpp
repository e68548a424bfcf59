// The cluster, mesh and workload panel: a preset's numbers and meshes, edits applied to
// a copy of the preset, the efficiency shares and the memory headroom that set the
// limit, the mouse wheel kept off settings it merely passes over, and nccl-tests logs
// imported as calibration curves (tests/data/nccl).
#include "search/ClusterPanel.h"
#include "cluster/ClusterFile.h"
#include "cluster/NcclTestsLog.h"
#include "cluster/PipelineStages.h"
#include "validation/RunValidation.h"
#include "ActiveWindow.h"
#include "FoldedTestModel.h"
#include "ScratchGuiEnvironment.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QApplication>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QTest>

using namespace tapestry;

class ClusterPanelTest : public QObject {
    Q_OBJECT

private:
    static QString ncclLog(const char* name) { return QStringLiteral(TAPESTRY_TEST_DATA_DIR "/nccl/") + QLatin1String(name); }

    // GPT-2 small on one DGX H100 (data parallel 8, FlashAttention-2 unless `attention`
    // names another kernel) at each sequence, in validate's format, with the step `truth`
    // prices: what a cluster with its figures would measure.
    static QString writeRuns(const QString& path, const std::vector<int>& sequences, const Cluster& truth,
                             const QString& attention = QStringLiteral("flash2"))
    {
        QJsonArray cases;
        for (const int sequence : sequences) {
            cases.append(QJsonObject{
                {QStringLiteral("name"), QStringLiteral("gpt2-s%1").arg(sequence)},
                {QStringLiteral("source"), QStringLiteral("test")},
                {QStringLiteral("model"),
                 QJsonObject{{QStringLiteral("architecture"), QStringLiteral("gpt")}, {QStringLiteral("layers"), 12},
                             {QStringLiteral("hidden"), 768}, {QStringLiteral("heads"), 12},
                             {QStringLiteral("ffn_hidden"), 3072}, {QStringLiteral("vocab"), 50257},
                             {QStringLiteral("sequence"), sequence}, {QStringLiteral("attention"), attention}}},
                {QStringLiteral("hardware"),
                 QJsonObject{{QStringLiteral("gpu"), QStringLiteral("H100-SXM5-80GB")},
                             {QStringLiteral("peak_tflops_bf16"), 989}, {QStringLiteral("gpus_per_node"), 8},
                             {QStringLiteral("nodes"), 1}, {QStringLiteral("inter_node_gbit_per_gpu"), 400}}},
                {QStringLiteral("training"),
                 QJsonObject{{QStringLiteral("precision"), QStringLiteral("bf16")}, {QStringLiteral("global_batch"), 64},
                             {QStringLiteral("micro_batch"), 8}, {QStringLiteral("data_parallel"), 8},
                             {QStringLiteral("tensor_parallel"), 1}, {QStringLiteral("pipeline_parallel"), 1},
                             {QStringLiteral("sequence_parallel"), false}, {QStringLiteral("zero_stage"), 0},
                             {QStringLiteral("recompute"), QStringLiteral("none")},
                             {QStringLiteral("optimizer"), QStringLiteral("adam")}}},
                {QStringLiteral("measured"), QJsonObject{{QStringLiteral("step_seconds"), 1.0}}}});
        }
        const QByteArray placeholder = QJsonDocument(QJsonObject{{QStringLiteral("cases"), cases}}).toJson();
        const std::vector<PublishedRun> runs = parsePublishedRuns(placeholder.toStdString(), "runs");
        for (qsizetype i = 0; i < cases.size(); ++i) {
            QJsonObject run = cases[i].toObject();
            run[QStringLiteral("measured")] = QJsonObject{
                {QStringLiteral("step_seconds"), PreparedRun(runs[static_cast<std::size_t>(i)]).price(truth).stepSeconds}};
            cases[i] = run;
        }
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QJsonDocument(QJsonObject{{QStringLiteral("cases"), cases}}).toJson());
        return path;
    }

private slots:
    void initTestCase() { test::useScratchGuiEnvironment(QStringLiteral("ClusterPanelTest")); }

    // Each preset starts on data parallel over its nodes and tensor parallel inside each:
    // 16 nodes of 8 GPUs give 16 x 8, not 2 x 64.
    void presetsStartWithTensorParallelInsideANode()
    {
        ClusterPanel panel;
        for (const auto& [preset, nodes] : {std::pair{"dgx-h100x16", 16}, std::pair{"dgx-h100x4", 4}, std::pair{"dgx-h100x2", 2}}) {
            QVERIFY(panel.choosePreset(QLatin1String(preset)));
            QCOMPARE(panel.setup().mesh, (std::vector<MeshAxis>{{"dp", nodes}, {"tp", 8}}));
        }
    }

    // The choices kept for one model come back for it, and only for it.
    void choicesAreRememberedPerModel()
    {
        ClusterPanel edited;
        QVERIFY(edited.choosePreset(QStringLiteral("dgx-h100x4")));
        QVERIFY(edited.chooseMesh({8, 4}));
        edited.setBatch(64);
        edited.setSequence(4096);
        edited.setTimeLimit(7);
        edited.findChild<QComboBox*>(QStringLiteral("zeroStage"))->setCurrentIndex(3);  // 2 (and gradients)
        edited.findChild<QCheckBox*>(QStringLiteral("overlap"))->setChecked(false);
        edited.findChild<QDoubleSpinBox*>(QStringLiteral("capacityFactor"))->setValue(1.25);
        edited.rememberFor(QStringLiteral("/models/a.onnx"));
        const SearchSetup kept = edited.setup();

        ClusterPanel reopened;
        QVERIFY(!reopened.recallFor(QStringLiteral("/models/b.onnx")));
        QCOMPARE(reopened.presetBox()->currentText(), QStringLiteral("dgx-h100x2"));
        QVERIFY(reopened.recallFor(QStringLiteral("/models/a.onnx")));
        const SearchSetup recalled = reopened.setup();
        QCOMPARE(reopened.presetBox()->currentText(), QStringLiteral("dgx-h100x4"));
        QCOMPARE(recalled.cluster.nodes, 4);
        QCOMPARE(recalled.mesh, (std::vector<MeshAxis>{{"dp", 8}, {"tp", 4}}));
        QCOMPARE(recalled.workload.batch, 64);
        QCOMPARE(recalled.workload.sequence, 4096);
        QCOMPARE(recalled.chooseZeroStage, false);
        QCOMPARE(recalled.workload.zeroStage, 2);
        QCOMPARE(recalled.workload.overlap, false);
        QCOMPARE(recalled.workload.capacityFactor, 1.25);
        QCOMPARE(recalled.chooseRecomputation, kept.chooseRecomputation);
        QCOMPARE(recalled.options.timeLimitSeconds, 7.0);
        QCOMPARE(recalled.options.memoryLimitBytes, kept.options.memoryLimitBytes);
    }

    // dgx-h100x2 is the default: 2 nodes of 8 H100 (80 GB), the 2 x 8 mesh chosen, no
    // headroom (the limit is the HBM itself, as the CLI's without --memory-limit: no limit
    // is passed), and "auto" first among the shapes meshShapes() allows.
    void presetFillsTheForm()
    {
        ClusterPanel panel;
        QCOMPARE(panel.presetBox()->currentText(), QStringLiteral("dgx-h100x2"));
        // Numeric order, not text order: x1, x2, x4, x16.
        QStringList h100;
        for (int i = 0; i < panel.presetBox()->count(); ++i) {
            if (panel.presetBox()->itemText(i).startsWith(QStringLiteral("dgx-h100x")))
                h100 << panel.presetBox()->itemText(i);
        }
        QCOMPARE(h100, (QStringList{QStringLiteral("dgx-h100x1"), QStringLiteral("dgx-h100x2"),
                                    QStringLiteral("dgx-h100x4"), QStringLiteral("dgx-h100x16")}));
        const SearchSetup setup = panel.setup();
        QCOMPARE(setup.cluster.nodes, 2);
        QCOMPARE(setup.cluster.gpusPerNode, 8);
        QCOMPARE(setup.cluster.gpu.hbmBytes, std::uint64_t(80'000'000'000));
        QCOMPARE(setup.mesh, (std::vector<MeshAxis>{{"dp", 2}, {"tp", 8}}));
        QCOMPARE(panel.findChild<QDoubleSpinBox*>(QStringLiteral("memoryHeadroom"))->value(), 0.0);
        QCOMPARE(panel.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimit"))->value(), 80.0);
        QVERIFY(!setup.options.memoryLimitBytes);
        // auto, the shapes, then the pipelined meshes (pp, dp, tp).
        const auto pipelined = pipelineMeshes(setup.cluster, setup.cluster.deviceCount());
        QCOMPARE(panel.meshBox()->count(), int(meshShapes(setup.cluster).size() + pipelined.size()) + 1);
        QCOMPARE(panel.meshBox()->itemText(panel.meshBox()->count() - 1), QStringLiteral("pp 16 × dp 1 × tp 1"));
        QVERIFY(panel.chooseMeshText(QStringLiteral("pp=2,dp=1,tp=8")));
        QCOMPARE(panel.setup().mesh, (std::vector<MeshAxis>{{"pp", 2}, {"dp", 1}, {"tp", 8}}));
        QVERIFY(!panel.chooseMeshText(QStringLiteral("pp=3,dp=1,tp=5")));
        QVERIFY(!panel.chooseMeshText(QStringLiteral("pp=")));
        QVERIFY(panel.chooseMesh({2, 8}));
        QVERIFY(panel.meshBox()->itemText(0).startsWith(QStringLiteral("auto")));
        QCOMPARE(setup.meshes().size(), std::size_t(1));
        QCOMPARE(setup.meshes().front().back().name, std::string("tp"));

        QVERIFY(panel.chooseMesh({}));
        // `auto` searches the pipelined meshes too.
        const std::size_t every =
            meshShapes(setup.cluster).size() + pipelineMeshes(setup.cluster, setup.cluster.deviceCount()).size();
        QCOMPARE(panel.setup().meshes().size(), every);
        // The command line's word for it (`--mesh auto`, as tapestry-cli takes it).
        QVERIFY(panel.chooseMesh({2, 8}));
        QVERIFY(panel.chooseMeshText(QStringLiteral("auto")));
        QCOMPARE(panel.meshBox()->currentIndex(), 0);
        QCOMPARE(panel.setup().meshes().size(), every);
        QVERIFY(!panel.chooseMesh({3, 5}));
        QVERIFY(!panel.choosePreset(QStringLiteral("no-such-cluster")));
    }

    // Four nodes make 32 GPUs (the 4 x 8 mesh appears); a smaller HBM moves the limit
    // with it (40 GB less a 10 % headroom); the preset itself is not changed by edits.
    void editsApplyToACopy()
    {
        ClusterPanel panel;
        panel.findChild<QDoubleSpinBox*>(QStringLiteral("memoryHeadroom"))->setValue(10);
        panel.findChild<QSpinBox*>(QStringLiteral("clusterNodes"))->setValue(4);
        QVERIFY(panel.chooseMesh({4, 8}));
        panel.findChild<QDoubleSpinBox*>(QStringLiteral("clusterHbm"))->setValue(40);
        const SearchSetup setup = panel.setup();
        QCOMPARE(setup.cluster.deviceCount(), 32);
        QCOMPARE(setup.cluster.gpu.hbmBytes, std::uint64_t(40'000'000'000));
        QCOMPARE(*setup.options.memoryLimitBytes, 36e9);

        QVERIFY(panel.choosePreset(QStringLiteral("dgx-a100x1")));
        QVERIFY(panel.choosePreset(QStringLiteral("dgx-h100x2")));
        QCOMPARE(panel.setup().cluster.nodes, 2);
        QCOMPARE(*panel.setup().options.memoryLimitBytes, 72e9);
    }

    // GB200 NVL72: 18 nodes of 4 GPUs in one NVLink domain of 72. The panel shows the
    // domain and names the links by it; the domain reaches the search's cluster, and
    // setting it to one node makes the node the domain again.
    void nvlinkDomainBeyondANode()
    {
        ClusterPanel panel;
        auto* domain = panel.findChild<QSpinBox*>(QStringLiteral("nvlinkDomain"));
        QVERIFY(domain);
        const auto labelOf = [&](const char* field) {
            auto* form = qobject_cast<QFormLayout*>(panel.findChild<QDoubleSpinBox*>(QLatin1String(field))
                                                        ->parentWidget()->layout());
            return qobject_cast<QLabel*>(form->labelForField(panel.findChild<QDoubleSpinBox*>(QLatin1String(field))))
                ->text();
        };
        QCOMPARE(domain->value(), 0);
        QCOMPARE(domain->text(), QStringLiteral("one node"));
        QCOMPARE(labelOf("intraBandwidth"), QStringLiteral("Intra-node:"));

        QVERIFY(panel.choosePreset(QStringLiteral("gb200-nvl72x1")));
        QCOMPARE(domain->value(), 72);
        QCOMPARE(labelOf("intraBandwidth"), QStringLiteral("In a domain:"));
        QCOMPARE(labelOf("interBandwidth"), QStringLiteral("Between domains:"));
        Cluster cluster = panel.setup().cluster;
        QCOMPARE(cluster.gpusPerNode, 4);
        QCOMPARE(cluster.deviceCount(), 72);
        QCOMPARE(cluster.nvlinkDomainSize(), 72);

        domain->setValue(0);
        cluster = panel.setup().cluster;
        QCOMPARE(cluster.nvlinkDomainSize(), 4);
        QCOMPARE(labelOf("intraBandwidth"), QStringLiteral("Intra-node:"));
    }

    // The efficiency shares start at the preset's (dgx-h100x2: achievableFraction 0.6,
    // attentionFraction 0.374) and reach the cluster as fractions; the headroom and the
    // limit set each other; both are kept for the model like the other choices.
    void efficiencyAndHeadroomAreEditable()
    {
        ClusterPanel panel;
        auto* gemm = panel.findChild<QDoubleSpinBox*>(QStringLiteral("gemmEfficiency"));
        auto* attention = panel.findChild<QDoubleSpinBox*>(QStringLiteral("attentionEfficiency"));
        auto* headroom = panel.findChild<QDoubleSpinBox*>(QStringLiteral("memoryHeadroom"));
        auto* limit = panel.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimit"));
        QVERIFY(gemm && attention && headroom && limit);
        QCOMPARE(gemm->value(), 60.0);
        QCOMPARE(attention->value(), 37.4);
        QCOMPARE(headroom->value(), ClusterPanel::kDefaultHeadroomPercent);

        gemm->setValue(62);
        attention->setValue(41);
        headroom->setValue(5);
        SearchSetup setup = panel.setup();
        QCOMPARE(setup.cluster.gpu.achievableFraction, 0.62);
        QCOMPARE(setup.cluster.gpu.attentionFraction, 0.41);
        QCOMPARE(*setup.options.memoryLimitBytes, 76e9);  // 80 GB less 5 %
        limit->setValue(60);
        QCOMPARE(headroom->value(), 25.0);  // 60 of 80 GB
        QCOMPARE(*panel.setup().options.memoryLimitBytes, 60e9);

        panel.rememberFor(QStringLiteral("/models/efficiency.onnx"));
        ClusterPanel reopened;
        QVERIFY(reopened.recallFor(QStringLiteral("/models/efficiency.onnx")));
        setup = reopened.setup();
        QCOMPARE(setup.cluster.gpu.achievableFraction, 0.62);
        QCOMPARE(setup.cluster.gpu.attentionFraction, 0.41);
        QCOMPARE(*setup.options.memoryLimitBytes, 60e9);
    }

    // Over a combo box or spin box without the focus the wheel scrolls the panel and
    // leaves the setting alone; once the control has the focus the wheel changes it.
    void wheelScrollsThePanelNotTheSettings()
    {
        QScrollArea scroll;
        auto* panel = new ClusterPanel;
        scroll.setWidget(panel);
        scroll.setWidgetResizable(true);
        scroll.resize(420, 300);  // much shorter than the form: it scrolls
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        QScrollBar* bar = scroll.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);

        auto* zero = panel->findChild<QComboBox*>(QStringLiteral("zeroStage"));
        auto* batch = panel->findChild<QSpinBox*>(QStringLiteral("batchSize"));
        QVERIFY(zero && batch);
        const auto wheelDown = [](QWidget* widget) {
            const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
            QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(widget, &event);
        };
        const int zeroIndex = zero->currentIndex();
        const int batchValue = batch->value();
        const int scrolled = bar->value();
        wheelDown(zero);
        QCOMPARE(zero->currentIndex(), zeroIndex);
        QVERIFY2(bar->value() > scrolled, "the wheel over the combo box scrolls the panel");
        const int scrolledAgain = bar->value();
        wheelDown(batch);
        QCOMPARE(batch->value(), batchValue);
        QVERIFY(bar->value() > scrolledAgain || bar->value() == bar->maximum());

        QVERIFY(test::activeAgain(scroll));
        zero->setFocus();
        QTRY_VERIFY(zero->hasFocus());
        wheelDown(zero);
        QCOMPARE(zero->currentIndex(), zeroIndex + 1);
    }

    // Recomputation and ZeRO start at Auto: the search chooses them per mesh. Full and
    // ZeRO 3 chosen in their boxes fix them (the search may not change them); the other
    // workload fields reach the setup as set.
    void workloadChoicesReachTheSetup()
    {
        ClusterPanel panel;
        const SearchSetup automatic = panel.setup();
        QVERIFY(automatic.chooseRecomputation);
        QVERIFY(automatic.chooseZeroStage);
        QCOMPARE(automatic.workload.microBatch, std::int64_t(0));
        QCOMPARE(automatic.workload.capacityFactor, 1.0);
        // What the default target, Megatron-LM, runs (stackRecomputations, stackZeroStages):
        // recomputation none or full (fused attention) times ZeRO 1 or 3.
        QCOMPARE(automatic.workloadVariants().size(), std::size_t(4));

        auto* recompute = panel.findChild<QComboBox*>(QStringLiteral("recomputation"));
        auto* zero = panel.findChild<QComboBox*>(QStringLiteral("zeroStage"));
        QVERIFY(recompute && zero);
        recompute->setCurrentIndex(recompute->findText(QStringLiteral("Full"), Qt::MatchStartsWith));
        zero->setCurrentIndex(zero->findText(QStringLiteral("3"), Qt::MatchStartsWith));
        panel.findChild<QSpinBox*>(QStringLiteral("microBatch"))->setValue(2);
        panel.findChild<QCheckBox*>(QStringLiteral("overlap"))->setChecked(false);
        auto* precision = panel.findChild<QComboBox*>(QStringLiteral("precision"));
        precision->setCurrentIndex(precision->findText(QStringLiteral("fp16"), Qt::MatchStartsWith));
        auto* attention = panel.findChild<QComboBox*>(QStringLiteral("attentionKernel"));
        attention->setCurrentIndex(attention->findText(QStringLiteral("Unfused")));
        const SearchSetup fixed = panel.setup();
        QVERIFY(!fixed.chooseRecomputation);
        QVERIFY(!fixed.chooseZeroStage);
        QVERIFY(fixed.workload.recompute == Recomputation::Full);
        QCOMPARE(fixed.workload.zeroStage, 3);
        QCOMPARE(fixed.workload.microBatch, std::int64_t(2));
        QVERIFY(!fixed.workload.overlap);
        QVERIFY(fixed.workload.computeType == DataType::Float16);
        QVERIFY(fixed.workload.attention == AttentionKernel::Unfused);
        // Fixed, the search has exactly one workload to price each mesh with.
        QCOMPARE(fixed.workloadVariants(), std::vector<Workload>{fixed.workload});

        // FP8: bf16 with FP8 GEMMs (the recipe), as --precision fp8 and mxfp8 set it.
        precision->setCurrentIndex(precision->findText(QStringLiteral("mxfp8"), Qt::MatchStartsWith));
        QVERIFY(panel.setup().workload.fp8 == Fp8Recipe::Block);
        QVERIFY(panel.setup().workload.computeType == DataType::BFloat16);
        precision->setCurrentIndex(precision->findText(QStringLiteral("fp8"), Qt::MatchStartsWith));
        QVERIFY(panel.setup().workload.fp8 == Fp8Recipe::PerTensor);
        // FP8 weights without a 16-bit copy: offered with an FP8 precision only.
        auto* fp8Weights = panel.findChild<QCheckBox*>(QStringLiteral("fp8Parameters"));
        QVERIFY(fp8Weights && fp8Weights->isEnabled());
        QVERIFY(!panel.setup().workload.fp8Parameters);
        fp8Weights->setChecked(true);
        QVERIFY(panel.setup().workload.fp8Parameters);
        panel.rememberFor(QStringLiteral("/models/fp8.onnx"));
        ClusterPanel reopened;
        QVERIFY(reopened.recallFor(QStringLiteral("/models/fp8.onnx")));
        QVERIFY(reopened.setup().workload.fp8 == Fp8Recipe::PerTensor);
        QVERIFY(reopened.setup().workload.fp8Parameters);
        precision->setCurrentIndex(precision->findText(QStringLiteral("bf16"), Qt::MatchStartsWith));
        QVERIFY(!fp8Weights->isEnabled());
        QVERIFY(!panel.setup().workload.fp8Parameters);
        precision->setCurrentIndex(precision->findText(QStringLiteral("fp8"), Qt::MatchStartsWith));
        fp8Weights->setChecked(false);

        // The target stack: Megatron-LM by default (kDefaultTrainingStack), any other
        // chosen reaches the search options and is kept for the model.
        auto* target = panel.findChild<QComboBox*>(QStringLiteral("target"));
        QVERIFY(target);
        QVERIFY(automatic.options.stack == kDefaultTrainingStack);
        // Selective recomputation reads as what the target's search prices
        // (stackSelectiveRecomputation): attention's core, or torchtitan's every other matmul.
        const int selective = recompute->findData(static_cast<int>(Recomputation::Selective));
        QCOMPARE(recompute->itemText(selective), QStringLiteral("Selective (attention core)"));
        target->setCurrentIndex(target->findData(QStringLiteral("torchtitan")));
        QVERIFY(panel.setup().options.stack == TrainingStack::TorchTitan);
        QCOMPARE(recompute->itemText(selective), QStringLiteral("Selective (every other matmul, torchtitan's)"));
        panel.rememberFor(QStringLiteral("/models/titan.onnx"));
        ClusterPanel titan;
        QVERIFY(titan.recallFor(QStringLiteral("/models/titan.onnx")));
        QVERIFY(titan.setup().options.stack == TrainingStack::TorchTitan);
        auto* titanRecompute = titan.findChild<QComboBox*>(QStringLiteral("recomputation"));
        QCOMPARE(titanRecompute->itemText(titanRecompute->findData(static_cast<int>(Recomputation::Selective))),
                 QStringLiteral("Selective (every other matmul, torchtitan's)"));
        target->setCurrentIndex(target->findData(QStringLiteral("megatron")));
        QCOMPARE(recompute->itemText(selective), QStringLiteral("Selective (attention core)"));
        target->setCurrentIndex(target->findData(QStringLiteral("torchtitan")));

        // ZeRO 0 is a choice too, not Auto.
        zero->setCurrentIndex(zero->findText(QStringLiteral("0"), Qt::MatchStartsWith));
        QVERIFY(!panel.setup().chooseZeroStage);
        QCOMPARE(panel.setup().workload.zeroStage, 0);

        recompute->setCurrentIndex(0);
        zero->setCurrentIndex(0);
        QVERIFY(recompute->currentText().startsWith(QStringLiteral("Auto")));
        QVERIFY(zero->currentText().startsWith(QStringLiteral("Auto")));
        QVERIFY(panel.setup().chooseRecomputation);
        QVERIFY(panel.setup().chooseZeroStage);
    }

    // A convolutional network trains on the PyTorch export only: Megatron-LM and
    // torchtitan stay listed but disabled, saying why, and the default target (Megatron-LM)
    // gives way to PyTorch, with a message; a transformer offers every stack again.
    void targetsThatCannotTrainTheModelAreNotOffered()
    {
        ClusterPanel panel;
        auto* target = panel.findChild<QComboBox*>(QStringLiteral("target"));
        const auto* items = qobject_cast<const QStandardItemModel*>(target->model());
        QVERIFY(items);
        const auto item = [&](const char* name) { return items->item(target->findData(QString::fromLatin1(name))); };
        QVERIFY(panel.setup().options.stack == TrainingStack::Megatron);
        QSignalSpy replaced(&panel, &ClusterPanel::targetReplaced);

        panel.offerTargetsFor(test::foldSynthPreset("resnet50"));
        QVERIFY(!item("megatron")->isEnabled());
        QVERIFY(!item("torchtitan")->isEnabled());
        QVERIFY(item("pytorch")->isEnabled());
        QVERIFY(item("any")->isEnabled());
        QVERIFY2(item("megatron")->toolTip().contains(QStringLiteral("a model without attention")),
                 qPrintable(item("megatron")->toolTip()));
        QVERIFY(panel.setup().options.stack == TrainingStack::PyTorch);
        QCOMPARE(replaced.size(), 1);
        QVERIFY2(replaced.front().front().toString().contains(QStringLiteral("Megatron-LM does not train this model")),
                 qPrintable(replaced.front().front().toString()));

        panel.offerTargetsFor(test::foldSynthPreset("gpt2-small", 2));
        for (const char* name : {"any", "pytorch", "megatron", "torchtitan"})
            QVERIFY2(item(name)->isEnabled() && item(name)->toolTip().isEmpty(), name);
        QVERIFY(panel.setup().options.stack == TrainingStack::PyTorch);  // a choice that runs is kept
        QCOMPARE(replaced.size(), 1);
    }

    void ncclLogBecomesACurve()
    {
        ClusterPanel panel;
        QVERIFY(panel.importNcclLog(ncclLog("all_reduce_perf.dgx-h100x1.log"), LinkClass::Intra));
        const Cluster cluster = panel.setup().cluster;
        const BusBandwidthCurve* curve = cluster.curve(CollectiveKind::AllReduce, LinkClass::Intra);
        QVERIFY(curve);
        QCOMPARE(*curve, NcclTestsLog::load(ncclLog("all_reduce_perf.dgx-h100x1.log").toStdString()).busBandwidthCurve());
        QVERIFY(!cluster.curve(CollectiveKind::AllReduce, LinkClass::Inter));
        const auto* list = panel.findChild<QListWidget*>(QStringLiteral("calibrationCurves"));
        QCOMPARE(list->count(), 1);
        QVERIFY2(list->item(0)->text().startsWith(QStringLiteral("all-reduce, intra-node: ")),
                 qPrintable(list->item(0)->text()));
        QVERIFY(list->item(0)->text().endsWith(QStringLiteral("(all_reduce_perf.dgx-h100x1.log)")));

        // A file name that does not say which collective it measured is refused.
        QTemporaryDir dir;
        const QString unnamed = dir.filePath(QStringLiteral("measurements.log"));
        QVERIFY(QFile::copy(ncclLog("all_reduce_perf.dgx-h100x1.log"), unnamed));
        QVERIFY(!panel.importNcclLog(unnamed, LinkClass::Inter));
        const auto* problem = panel.findChild<QLabel*>(QStringLiteral("clusterProblem"));
        QVERIFY(problem->text().contains(QStringLiteral("measurements.log")));
        QCOMPARE(list->count(), 1);
    }

    // Beside the nccl-tests import: runs measured on GPUs whose GEMMs reach 50 % of the
    // peak (the preset says 60 %) calibrate the cluster to 50 % within the fit's 1 % grid;
    // the panel says so, saves the cluster as a file, which a panel opens again (and
    // remembers for a model); two runs are refused as too few.
    void calibrationFitsTheFiguresAndSavesAClusterFile()
    {
        QTemporaryDir dir;
        ClusterPanel panel;
        panel.resize(420, 1400);
        Cluster truth = panel.setup().cluster;
        truth.gpu.achievableFraction = 0.5;
        const QString runs = writeRuns(dir.filePath(QStringLiteral("runs.json")), {512, 1024, 2048, 4096, 8192}, truth);
        QVERIFY(!runs.isEmpty());
        QSignalSpy finished(&panel, &ClusterPanel::calibrationFinished);
        panel.calibrateToRuns(runs);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);

        auto* gemm = panel.findChild<QDoubleSpinBox*>(QStringLiteral("gemmEfficiency"));
        QVERIFY2(std::abs(gemm->value() - 50) <= 0.6, qPrintable(QString::number(gemm->value())));
        QVERIFY(std::abs(panel.setup().cluster.gpu.achievableFraction / 0.5 - 1) <= 0.012);
        const auto* summary = panel.findChild<QLabel*>(QStringLiteral("calibrationSummary"));
        QVERIFY(!summary->isHidden());
        QVERIFY2(summary->text().startsWith(QStringLiteral("Fitted to 5 runs of runs.json: GEMM efficiency 60.0 % → ")),
                 qPrintable(summary->text()));
        QVERIFY2(!summary->text().contains(QStringLiteral("FlashAttention 1.x")), qPrintable(summary->text()));
        if (const QString pictures = qEnvironmentVariable("TAPESTRY_TEST_PICTURES"); !pictures.isEmpty())
            panel.grab().save(pictures + QStringLiteral("/cluster-panel-calibrated.png"));

        const QString saved = dir.filePath(QStringLiteral("my-cluster.json"));
        QVERIFY(panel.saveClusterFile(saved));
        const Cluster written = loadClusterFile(saved.toStdString());
        QCOMPARE(written.name, std::string("my-cluster"));
        QVERIFY(std::abs(written.gpu.achievableFraction / 0.5 - 1) <= 0.012);
        QVERIFY(written.notes.back().starts_with("Calibrated to 5 measured runs of "));

        ClusterPanel reopened;
        QVERIFY(reopened.openClusterFile(saved));
        QCOMPARE(reopened.presetBox()->currentText(), QStringLiteral("my-cluster (file my-cluster.json)"));
        QCOMPARE(reopened.setup().cluster.name, std::string("my-cluster"));
        QCOMPARE(reopened.setup().cluster.gpu.achievableFraction, gemm->value() / 100);
        reopened.rememberFor(QStringLiteral("/models/calibrated.onnx"));
        ClusterPanel recalled;
        QVERIFY(recalled.recallFor(QStringLiteral("/models/calibrated.onnx")));
        QCOMPARE(recalled.setup().cluster.name, std::string("my-cluster"));

        const QString two = writeRuns(dir.filePath(QStringLiteral("two.json")), {512, 1024}, truth);
        panel.calibrateToRuns(two);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        const auto* problem = panel.findChild<QLabel*>(QStringLiteral("clusterProblem"));
        QVERIFY(!problem->isHidden());
        QVERIFY2(problem->text().contains(QStringLiteral("two.json")) &&
                     problem->text().contains(QStringLiteral("a fit of even one figure needs 3")),
                 qPrintable(problem->text()));
    }

    // Runs that say plain "flash" are priced as FlashAttention 1.x, and the summary says so.
    void calibrationSaysHowItReadsPlainFlash()
    {
        QTemporaryDir dir;
        ClusterPanel panel;
        Cluster truth = panel.setup().cluster;
        truth.gpu.achievableFraction = 0.5;
        const QString runs = writeRuns(dir.filePath(QStringLiteral("flash.json")), {512, 1024, 2048}, truth,
                                       QStringLiteral("flash"));
        QVERIFY(!runs.isEmpty());
        QSignalSpy finished(&panel, &ClusterPanel::calibrationFinished);
        panel.calibrateToRuns(runs);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        const auto* summary = panel.findChild<QLabel*>(QStringLiteral("calibrationSummary"));
        QVERIFY2(summary->text().startsWith(QStringLiteral("Fitted to 3 runs of flash.json")) &&
                     summary->text().endsWith(QStringLiteral("Runs that say “flash” are read as FlashAttention 1.x; "
                                                             "runs of FlashAttention-2 should say “flash2”.")),
                 qPrintable(summary->text()));
    }
};

QTEST_MAIN(ClusterPanelTest)
#include "ClusterPanelTest.moc"
