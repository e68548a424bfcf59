// Megatron-LM arguments and torchtitan job configs: the exact arguments of a small
// pipelined GPT plan, export -> import round trips (stages, virtual stages, schedule,
// chunk boundaries, micro-batch, recomputation, ZeRO, sequence parallelism), the notes on
// what a stack cannot express, errors naming the file, the PyTorch export's FSDP,
// activation checkpointing and pipeline split points, and the files read by the tools
// that run them (bash, Python's tomllib and parser) where those are installed.
#include "base/Error.h"
#include "cluster/PipelineStages.h"
#include "cost/CostModel.h"
#include "export/ExportFormat.h"
#include "export/MegatronArguments.h"
#include "export/PyTorchPlanExport.h"
#include "export/TorchTitanConfig.h"
#include "export/TorchTitanTrainerConfig.h"
#include "export/TrainingStackImport.h"
#include "FoldedTestModel.h"
#include "TrainingStackImports.h"
#include "plan/ExpertPlans.h"
#include "target/StackRules.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// Four GPT-2-small layers: blocks transformer.h.0 .. transformer.h.3.
const FoldedModel& gpt(std::int64_t layers = 4)
{
    static std::map<std::int64_t, FoldedModel> models;
    auto found = models.find(layers);
    if (found == models.end())
        found = models.emplace(layers, foldSynthPreset("gpt2-small", layers)).first;
    return found->second;
}

// Megatron-LM's style on 8 GPUs: pipeline 2 (interleaved, 2 chunks each) x dp 2 x tp 2
// with sequence parallelism, selective recomputation and the distributed optimizer.
PlanDocument pipelinedPlan(const FoldedModel& m)
{
    PlanDocument document;
    document.plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, {{"dp", 2}, {"tp", 2}});
    document.plan.name = "gpt-pp";
    document.plan.pipeline = {2, 2, PipelineSchedule::Interleaved, {}};
    Workload& w = document.workload;
    w.batch = 16;
    w.sequence = 1024;
    w.microBatch = 1;
    w.zeroStage = 1;
    w.recompute = Recomputation::Selective;
    w.computeType = DataType::BFloat16;
    w.attention = AttentionKernel::FlashAttention2;
    w.overlap = true;
    return document;
}

// Data parallel over 8 GPUs at 16 x 1024, micro-batch 1, ZeRO `zeroStage` as torchtitan
// implements it.
PlanDocument torchTitanDataParallelPlan(const FoldedModel& m, const char* name, int zeroStage)
{
    PlanDocument document;
    document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"dp", 8}});
    document.plan.name = name;
    Workload& w = document.workload;
    w.batch = 16;
    w.sequence = 1024;
    w.microBatch = 1;
    w.zeroStage = zeroStage;
    w = withStackImplementations(w, TrainingStack::TorchTitan);
    return document;
}

std::vector<std::size_t> resolvedStarts(const FoldedModel& m, const PipelineLayout& layout)
{
    return chunkStarts(layout, modelBlocks(m.families).size());
}

// The error importing `text` as `fileName` gives.
std::string importError(const std::string& text, const std::string& fileName, int gpus = 8, std::int64_t layers = 4)
{
    try {
        (void)importTrainingStackPlan(text, fileName, gpt(layers), gpus);
    } catch (const Error& error) {
        return error.what();
    }
    return "no error";
}

// `python3 -c script file` (or bash), its standard output; empty QString when the tool is not installed.
QString runTool(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return QStringLiteral("failed: ") + QString::fromUtf8(process.readAllStandardError());
    return QString::fromUtf8(process.readAllStandardOutput());
}

std::string writeTemporary(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(file, std::ios::binary) << text;
    return file;
}

}  // namespace

class TrainingStackExportTest : public QObject {
    Q_OBJECT

private slots:
    void megatronArgumentsOfAPipelinedGpt()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = pipelinedPlan(m);
        document.workload.gradientLifetime = GradientLifetime::ZeroedEachStep;  // as Megatron-LM keeps them
        document.workload.gradientClipping = GradientClipping::AboveLimit;     // and clips them
        document.workload.optimizerStep = OptimizerStep::FusedRemainders;       // and steps bf16 weights
        const std::string text = exportMegatronArguments(m, document, 8);
        const std::string expected = R"(MEGATRON_ARGS=(
    --tensor-model-parallel-size 2
    --pipeline-model-parallel-size 2
    --num-layers 4
    --num-layers-per-virtual-pipeline-stage 1
    --sequence-parallel
    --seq-length 1024
    --micro-batch-size 1
    --global-batch-size 16
    --recompute-granularity selective
    --use-distributed-optimizer
    --use-precision-aware-optimizer
    --bf16
    --use-flash-attn
    --grad-reduce-in-bf16
    --overlap-grad-reduce
    --no-overlap-p2p-communication
)
)";
        // The plan's interleaved sends are priced waited for: Megatron-LM is told so. Its
        // fused optimizer step is Transformer Engine's FusedAdam with master weights.
        QVERIFY2(text.ends_with(expected), text.c_str());
        QVERIFY2(contains(text, "# pipeline 2 x data parallel 2 x tensor parallel 2 = 8 GPUs.\n"), text.c_str());
        // Megatron-LM's own layout: nothing to note.
        QVERIFY2(!contains(text, "Not expressible"), text.c_str());
    }

    void megatronRoundTripKeepsThePipelineAndWorkload()
    {
        const FoldedModel& m = gpt();
        PlanDocument original = pipelinedPlan(m);
        original.workload = withStackImplementations(original.workload, TrainingStack::Megatron);
        QVERIFY(original.workload.pipelineSendOverlap);  // Megatron-LM's default, written as no flag
        const std::string written = exportMegatronArguments(m, original, 8);
        QVERIFY2(!contains(written, "p2p-communication"), written.c_str());
        const TrainingStackImport back = imported(written, "gpt-pp.sh", m, 8);
        QCOMPARE(back.warnings, std::vector<std::string>{});
        QCOMPARE(back.document.plan.strategies, original.plan.strategies);
        QCOMPARE(back.document.plan.mesh, (std::vector<MeshAxis>{{"dp", 2}, {"tp", 2}}));
        QCOMPARE(back.document.plan.pipeline.stages, 2);
        QCOMPARE(back.document.plan.pipeline.virtualStages, 2);
        QCOMPARE(back.document.plan.pipeline.schedule, PipelineSchedule::Interleaved);
        QCOMPARE(resolvedStarts(m, back.document.plan.pipeline), resolvedStarts(m, original.plan.pipeline));
        // As Megatron-LM implements each technique (its ZeRO 3 is FSDP2).
        QVERIFY(back.document.workload == withStackImplementations(original.workload, TrainingStack::Megatron));
        QCOMPARE(back.document.plan.origin, PlanOrigin::Import);
        QCOMPARE(back.document.plan.name, std::string("gpt-pp"));

        // cuDNN's attention is Transformer Engine's fused backend, and comes back as itself.
        PlanDocument cudnn = original;
        cudnn.workload = withStackImplementations(cudnn.workload, TrainingStack::Megatron);
        cudnn.workload.attention = AttentionKernel::Cudnn;
        const std::string text = exportMegatronArguments(m, cudnn, 8);
        QVERIFY2(contains(text, "    --attention-backend fused\n") && !contains(text, "--use-flash-attn"), text.c_str());
        QVERIFY(imported(text, "gpt-pp.sh", m, 8).document.workload == cudnn.workload);

        // Sends priced waited for are written so, and come back so.
        PlanDocument waiting = original;
        waiting.workload.pipelineSendOverlap = false;
        QVERIFY(!imported(exportMegatronArguments(m, waiting, 8), "gpt-pp.sh", m, 8).document.workload.pipelineSendOverlap);

        // Megatron-LM's default step runs on fp32 main parameters (master copies, no flag);
        // the fused step is --use-precision-aware-optimizer, which it runs only on the
        // distributed optimizer (ZeRO 1 here) and refuses without it. On bf16 weights it keeps
        // each master as the 16-bit remainder of its weight: that plan runs as priced; one
        // priced with whole masters is written the same and says so; a file that asks for whole
        // masters (--no-store-param-remainders, Megatron-Core after r0.12) reads back so.
        QVERIFY(!contains(written, "--use-precision-aware-optimizer"));
        QCOMPARE(original.workload.computeType, DataType::BFloat16);
        PlanDocument fusedStep = original;
        fusedStep.workload.optimizerStep = OptimizerStep::FusedRemainders;
        const std::string fusedText = exportMegatronArguments(m, fusedStep, 8);
        QVERIFY2(contains(fusedText, "    --use-distributed-optimizer\n    --use-precision-aware-optimizer\n") &&
                     !contains(fusedText, "optimizer step priced") && !contains(fusedText, "optimizer states priced"),
                 fusedText.c_str());
        QVERIFY(imported(fusedText, "gpt-pp.sh", m, 8).document.workload == fusedStep.workload);
        PlanDocument wholeMasters = original;
        wholeMasters.workload.optimizerStep = OptimizerStep::Fused;
        const std::string wholeText = exportMegatronArguments(m, wholeMasters, 8);
        QVERIFY2(contains(wholeText, "    --use-distributed-optimizer\n    --use-precision-aware-optimizer\n") &&
                     contains(wholeText, "#   - optimizer states priced with whole fp32 masters: Megatron-LM's "
                                         "--use-precision-aware-optimizer keeps each as the 16-bit remainder of its "
                                         "bf16 weight"),
                 wholeText.c_str());
        QCOMPARE(imported(wholeText, "gpt-pp.sh", m, 8).document.workload.optimizerStep, OptimizerStep::FusedRemainders);
        std::string asked = fusedText;
        asked.replace(asked.find("    --use-precision-aware-optimizer\n"), 0, "    --no-store-param-remainders\n");
        QVERIFY(imported(asked, "gpt-pp.sh", m, 8).document.workload == wholeMasters.workload);
        fusedStep.workload.zeroStage = 0;
        const std::string replicated = exportMegatronArguments(m, fusedStep, 8);
        QVERIFY2(!contains(replicated, "    --use-precision-aware-optimizer\n") &&
                     contains(replicated, "#   - optimizer step priced as one fused kernel that reads the gradients "
                                          "and writes the 16-bit weights: Megatron-LM runs that"),
                 replicated.c_str());
        QCOMPARE(imported(replicated, "gpt-pp.sh", m, 8).document.workload.optimizerStep, OptimizerStep::MasterCopies);
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --use-precision-aware-optimizer\n", "run.sh"),
                         "run.sh: --use-precision-aware-optimizer without --use-distributed-optimizer"));
    }

    // With no batch in the plan and none in the model, the cost model prices two sequences
    // per GPU of the whole run, at least 8, and the exports write that batch: 16 for
    // pipeline 2 x dp 2 x tp 2, 8 (not 4) for dp 2 alone.
    void exportsTheDefaultBatchThePlanIsPricedWith()
    {
        QCOMPARE(ShapeBinder::defaultBatchFor(2), std::int64_t{8});
        QCOMPARE(ShapeBinder::defaultBatchFor(8), std::int64_t{16});
        const FoldedModel& m = gpt();
        PlanDocument pipelined = pipelinedPlan(m);
        PlanDocument dataParallel = pipelinedPlan(m);
        dataParallel.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"dp", 2}});
        dataParallel.plan.name = "gpt-dp";
        for (const auto& [document, gpus, batch] : {std::tuple{&pipelined, 8, 16}, std::tuple{&dataParallel, 2, 8}}) {
            document->workload.batch = 0;
            Cluster cluster = testCluster("dgx-h100x1");
            cluster.gpusPerNode = gpus;
            const PipelineStages stages = pipelineStages(cluster, document->plan.pipeline.stages);
            const DeviceMesh stageMesh(document->plan.mesh, stages.stageCluster);
            const CostModel costs(m.graph(), m.coarse, m.families, stages.stageCluster, stageMesh, document->workload,
                                  PipelineSetting{document->plan.pipeline, stages.boundaryLink});
            QCOMPARE(costs.workload().batch, std::int64_t{batch});
            QCOMPARE(trainingStackSettings(m, *document, 8).workload.batch, std::int64_t{batch});
            const std::string text = exportMegatronArguments(m, *document, gpus);
            QVERIFY2(contains(text, "    --global-batch-size " + std::to_string(batch) + "\n"), text.c_str());
        }
    }

    void megatronFullRecomputeAndUnevenFirstStage()
    {
        const FoldedModel& m = gpt(8);
        PlanDocument document = pipelinedPlan(m);
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"dp", 1}, {"tp", 2}});
        document.plan.pipeline = {3, 1, PipelineSchedule::OneFOneB, {0, 2, 5}};  // 2, 3, 3 blocks
        document.workload.recompute = Recomputation::Full;
        document.workload.zeroStage = 0;
        document.workload.fp32MainGradients = true;
        document.workload.batch = 12;
        const std::string text = exportMegatronArguments(m, document, 8);
        QVERIFY2(contains(text, "    --pipeline-model-parallel-size 3\n    --num-layers 8\n"
                                "    --decoder-first-pipeline-num-layers 2\n    --seq-length 1024\n"),
                 text.c_str());
        QVERIFY2(contains(text, "    --recompute-granularity full\n    --recompute-method uniform\n"
                                "    --recompute-num-layers 1\n    --bf16\n"),
                 text.c_str());
        QVERIFY(contains(text, "    --accumulate-allreduce-grads-in-fp32\n"));
        QVERIFY(!contains(text, "--sequence-parallel"));
        QVERIFY(!contains(text, "--use-distributed-optimizer"));
        // Priced without clipping the gradients: the file leaves Megatron-LM's clip (1.0) on,
        // which changes the training, and says so; a file with --clip-grad 0 reads back so.
        QCOMPARE(document.workload.gradientClipping, GradientClipping::None);
        QVERIFY2(!contains(text, "    --clip-grad") &&
                     contains(text, "#   - gradients priced without clipping by their norm: Megatron-LM reads their "
                                    "norm every step and scales them when it exceeds --clip-grad 1.0 (slower)"),
                 text.c_str());
        const TrainingStackImport back = imported(text, "uneven.sh", m, 6);
        QCOMPARE(back.document.plan.pipeline.chunkStarts, (std::vector<std::size_t>{0, 2, 5}));
        QCOMPARE(back.document.plan.pipeline.schedule, PipelineSchedule::OneFOneB);
        QCOMPARE(back.document.plan.strategies, document.plan.strategies);
        const Workload runs = withStackImplementations(document.workload, TrainingStack::Megatron);
        QCOMPARE(runs.gradientClipping, GradientClipping::AboveLimit);
        QVERIFY(back.document.workload == runs);
        std::string unclipped = text;
        unclipped.replace(unclipped.find("    --bf16\n"), 0, "    --clip-grad 0\n");
        QCOMPARE(imported(unclipped, "uneven.sh", m, 6).document.workload.gradientClipping, GradientClipping::None);
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --clip-grad -1\n", "run.sh"),
                         "run.sh: --clip-grad '-1' is not a number of 0 or more"));
    }

    // Megatron-LM keeps bf16 gradients in fp32 main gradients unless --grad-reduce-in-bf16
    // (validate_args); fp16 ones in fp32 only with --accumulate-allreduce-grads-in-fp32.
    void megatronMainGradientTypeFollowsValidateArgs()
    {
        const FoldedModel& m = gpt(8);
        for (const DataType compute : {DataType::BFloat16, DataType::Float16}) {
            for (const bool fp32 : {false, true}) {
                PlanDocument document = pipelinedPlan(m);
                document.workload.computeType = compute;
                document.workload.fp32MainGradients = fp32;
                const std::string text = exportMegatronArguments(m, document, 8);
                QCOMPARE(contains(text, "--grad-reduce-in-bf16\n"), compute == DataType::BFloat16 && !fp32);
                QCOMPARE(contains(text, "--accumulate-allreduce-grads-in-fp32\n"), fp32);
                const TrainingStackImport back = imported(text, "gradients.sh", m, 8);
                QCOMPARE(back.document.workload.fp32MainGradients, fp32);
            }
        }
        // A hand-written bf16 script without either flag runs fp32 main gradients.
        const std::string bare = "MEGATRON_ARGS=(\n    --tensor-model-parallel-size 2\n    --num-layers 8\n"
                                 "    --seq-length 1024\n    --micro-batch-size 1\n    --global-batch-size 8\n"
                                 "    --bf16\n)\n";
        QVERIFY(imported(bare, "bare.sh", m, 8).document.workload.fp32MainGradients);
        QVERIFY(!imported(bare.substr(0, bare.find("--bf16")) + "--fp16\n)\n", "fp16.sh", m, 8)
                     .document.workload.fp32MainGradients);
    }

    void megatronNotesWhatItCannotExpress()
    {
        const FoldedModel& m = gpt(8);
        PlanDocument document = pipelinedPlan(m);
        document.plan.pipeline = {4, 1, PipelineSchedule::GPipe, {0, 1, 3, 6}};  // 1, 2, 3, 2 blocks
        document.workload.zeroStage = 3;
        // One linear of every block split unlike Megatron-LM: c_fc on its rows.
        for (const CoarseNode& node : m.coarse.nodes)
            if (node.name.ends_with("mlp/c_fc/MatMul"))
                document.plan.strategies[node.id.index()].axes[1] = AxisSplit::Row;
        validatePlan(document.plan, m.coarse);
        const std::string text = exportMegatronArguments(m, document, 8);
        QVERIFY2(contains(text, "#   - 'transformer/h.#/mlp/c_fc/MatMul' (8 nodes) splits dp=batch tp=row where "
                                "Megatron-LM's layout splits dp=batch tp=column\n"),
                 text.c_str());
        QVERIFY2(contains(text, "#   - the GPipe schedule: Megatron-LM runs 1F1B"), text.c_str());
        QVERIFY2(contains(text, "#   - stages of 1, 2, 3, 2 blocks: Megatron-LM sets only the first and last stage "
                                "apart from an even split\n"),
                 text.c_str());
        QVERIFY2(contains(text, "#   - ZeRO stage 3 with a pipeline: Megatron-Core's FSDP2 (--use-torch-fsdp2) is "
                                "written here only without pipeline parallelism"),
                 text.c_str());
        QVERIFY(!contains(text, "--decoder-"));
        // Tensor parallelism of 2 inside nodes of 8 is not noted; over nodes of 1 GPU it is.
        QVERIFY(!contains(text, "crosses nodes"));
        QVERIFY(contains(exportMegatronArguments(m, document, 1), "tensor parallelism over 2 GPUs crosses nodes of 1"));
    }

    // A plan priced with Megatron-FSDP is written as Megatron-LM's --use-megatron-fsdp with
    // its ZeRO stage as the sharding strategy, and reads back as the same workload at the
    // same step time and memory (tp 2 x dp 4 on one DGX H100, every ZeRO stage).
    void megatronFsdpRoundTripsEachShardingStrategy()
    {
        const FoldedModel& m = gpt();
        const Cluster cluster = testCluster("dgx-h100x1");
        const auto price = [&](const PlanDocument& document) {
            const DeviceMesh mesh(document.plan.mesh, cluster);
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, document.workload).evaluate(document.plan);
        };
        PlanDocument document = pipelinedPlan(m);
        document.plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, {{"dp", 4}, {"tp", 2}});
        document.plan.name = "gpt-fsdp";
        document.workload = withStackImplementations(document.workload, TrainingStack::Megatron);
        document.workload.zeroImplementation = ZeroImplementation::MegatronFsdp;
        const std::array<const char*, 4> strategies = {"no_shard", "optim", "optim_grads", "optim_grads_params"};
        for (int zero = 0; zero <= 3; ++zero) {
            document.workload.zeroStage = zero;
            const std::string text = exportMegatronArguments(m, document, 8);
            QVERIFY2(contains(text, std::string("    --use-megatron-fsdp\n    --data-parallel-sharding-strategy ") +
                                        strategies.at(static_cast<std::size_t>(zero)) +
                                        "\n    --use-distributed-optimizer\n    --ckpt-format fsdp_dtensor\n"),
                     text.c_str());
            // Megatron-FSDP refuses CUDA_DEVICE_MAX_CONNECTIONS=1, which tensor parallelism
            // otherwise needs.
            QVERIFY2(contains(text, "\nunset CUDA_DEVICE_MAX_CONNECTIONS\n") && !contains(text, "export CUDA_DEVICE"),
                     text.c_str());
            QVERIFY2(!contains(text, "Not expressible") && !contains(text, "--use-torch-fsdp2"), text.c_str());
            const TrainingStackImport back = imported(text, "fsdp.sh", m, 8);
            QCOMPARE(back.warnings, std::vector<std::string>{});
            QCOMPARE(back.document.plan.strategies, document.plan.strategies);
            QVERIFY2(back.document.workload == document.workload, text.c_str());
            const PlanEvaluation original = price(document);
            const PlanEvaluation reread = price(back.document);
            QCOMPARE(reread.total.time.stepSeconds(), original.total.time.stepSeconds());
            QCOMPARE(reread.total.memory.total(), original.total.memory.total());
        }
        // Megatron-LM overlaps the reduction of gradients it shards: a plan priced without
        // that overlap says so, and reads back with it.
        PlanDocument waited = document;
        waited.workload.overlap = false;
        const std::string text = exportMegatronArguments(m, waited, 8);
        QVERIFY2(contains(text, "#   - no overlap of gradient reduction with backward: Megatron-FSDP overlaps it"),
                 text.c_str());
        QVERIFY(imported(text, "fsdp.sh", m, 8).document.workload.overlap);
        // With a pipeline it is written as the distributed optimizer, with a note.
        PlanDocument pipelined = pipelinedPlan(m);
        pipelined.workload.zeroStage = 3;
        pipelined.workload.zeroImplementation = ZeroImplementation::MegatronFsdp;
        const std::string staged = exportMegatronArguments(m, pipelined, 8);
        QVERIFY2(contains(staged, "#   - ZeRO stage 3 priced as Megatron-FSDP's with a pipeline: --use-megatron-fsdp is "
                                  "written here only without pipeline parallelism") &&
                     contains(staged, "    --use-distributed-optimizer\n") && !contains(staged, "megatron-fsdp\n") &&
                     contains(staged, "export CUDA_DEVICE_MAX_CONNECTIONS=1\n"),
                 staged.c_str());
        // Hand-written files: the old flag's name, a strategy without Megatron-FSDP, and
        // what Megatron-LM refuses.
        const std::string tp1 = "--tensor-model-parallel-size 1 ";
        const TrainingStackImport custom =
            imported(tp1 + "--use-custom-fsdp --data-parallel-sharding-strategy optim_grads\n", "custom.sh", m, 8);
        QCOMPARE(custom.document.workload.zeroImplementation, ZeroImplementation::MegatronFsdp);
        QCOMPARE(custom.document.workload.zeroStage, 2);
        QVERIFY(custom.document.workload.overlap);
        const TrainingStackImport strategyAlone = imported(
            tp1 + "--use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params\n", "dp.sh", m, 8);
        QCOMPARE(strategyAlone.document.workload.zeroStage, 1);
        QCOMPARE(strategyAlone.warnings,
                 std::vector<std::string>{"--data-parallel-sharding-strategy optim_grads_params without "
                                          "--use-megatron-fsdp: Megatron-FSDP's setting, ignored (ZeRO 1 as the other "
                                          "flags say)"});
        const std::string typo = importError(tp1 + "--use-megatron-fsdp --data-parallel-sharding-strategy optim_grad\n",
                                             "run.sh");
        QVERIFY2(contains(typo, "run.sh: --data-parallel-sharding-strategy 'optim_grad' is not no_shard, optim, "
                                "optim_grads or optim_grads_params"),
                 typo.c_str());
        QVERIFY(contains(importError(tp1 + "--use-megatron-fsdp --use-torch-fsdp2\n", "run.sh"),
                         "run.sh: both --use-megatron-fsdp and --use-torch-fsdp2"));
    }

    // What autograd saves (and how the memory-bound ops run), how the optimizer step runs and
    // whether the gradients outlive the step are priced per stack (withStackImplementations): a
    // plan priced as another stack runs them says so, and the PyTorch export re-prices a fused,
    // persistent plan as its eager modules, master copies and zero_grad run.
    void savedActivationsAndGradientLifetimeAreNoted()
    {
        const FoldedModel& m = gpt();
        PlanDocument eager = torchTitanDataParallelPlan(m, "eager", 2);
        eager.workload.microBatch = 2;  // 16 sequences over 8 ranks: one micro-step
        eager.workload = withStackImplementations(eager.workload, TrainingStack::PyTorch);
        const std::string megatron = exportMegatronArguments(m, eager, 8);
        QVERIFY2(contains(megatron, "#   - activations and memory-bound ops priced as eager PyTorch modules keep and "
                                    "run them (each op its own kernel): Megatron-LM's fused kernels keep less and move "
                                    "fewer bytes\n"),
                 megatron.c_str());
        QVERIFY2(!contains(megatron, "optimizer step priced"), megatron.c_str());  // master copies too
        QVERIFY2(contains(megatron, "Megatron-LM keeps its gradient buffer from step to step (more memory)"),
                 megatron.c_str());
        QVERIFY2(contains(megatron, "gradients priced without zeroing a buffer each step: Megatron-LM zeroes its "
                                    "whole gradient buffer every step"),
                 megatron.c_str());
        const std::string titan = exportTorchTitanConfig(m, eager, 8);
        QVERIFY2(contains(titan, "activations and memory-bound ops priced as eager PyTorch modules keep and run them "
                                 "(each op its own kernel): torchtitan's fused kernels"),
                 titan.c_str());
        QVERIFY2(contains(titan, "optimizer step priced on fp32 master copies (16-bit gradients cast to fp32, masters "
                                 "copied back into the weights): torchtitan's fused optimizer moves fewer bytes"),
                 titan.c_str());
        QVERIFY2(!contains(titan, "gradients priced as"), titan.c_str());  // torchtitan frees them too
        QVERIFY(!contains(exportPyTorchPlan(m, eager), "activations and memory-bound ops priced as"));
        QVERIFY(!contains(exportPyTorchPlan(m, eager), "optimizer step priced as"));
        QVERIFY(contains(exportPyTorchPlan(m, eager), "keep fp32 masters in the optimizer (torch.optim's fused=True),\n"
                                                      "#   each gradient cast to an fp32 copy before the step"));

        // With two micro-steps the gradients count whole either way: only the zeroing differs.
        PlanDocument accumulating = eager;
        accumulating.workload.microBatch = 1;
        const std::string twoSteps = exportMegatronArguments(m, accumulating, 8);
        QVERIFY2(!contains(twoSteps, "gradients priced as") && contains(twoSteps, "gradients priced without zeroing"),
                 twoSteps.c_str());

        // Megatron-LM's implementations with the fused step it runs on request.
        PlanDocument fused = eager;
        fused.workload = withStackImplementations(eager.workload, TrainingStack::Megatron);
        fused.workload.optimizerStep = OptimizerStep::Fused;
        const std::string python = exportPyTorchPlan(m, fused);
        QVERIFY2(contains(python, "activations and memory-bound ops priced as fused kernels keep and run them: the "
                                  "PyTorch export's eager modules keep more"),
                 python.c_str());
        QVERIFY2(contains(python, "optimizer step priced as one fused kernel that reads the 16-bit gradients and "
                                  "writes the 16-bit weights: the PyTorch export runs torch.optim on fp32 master "
                                  "copies"),
                 python.c_str());
        QVERIFY2(contains(python, "gradients priced as kept from step to step (a persistent gradient buffer): the "
                                  "PyTorch export frees them between steps"),
                 python.c_str());
        QVERIFY2(contains(python, "gradient buffer priced as zeroed in place every step (one write of every held "
                                  "gradient): the PyTorch export frees its gradients between steps instead (faster)"),
                 python.c_str());
        const PlanDocument runs = pyTorchRunnablePlan(m, fused);
        QCOMPARE(runs.workload.savedActivations, SavedActivations::Eager);
        QCOMPARE(runs.workload.optimizerStep, OptimizerStep::MasterCopies);
        QCOMPARE(runs.workload.gradientLifetime, GradientLifetime::FreedBetweenSteps);
        const std::optional<PlanDocument> back = importPyTorchPlanExport(python, "plan.py", m);
        QVERIFY(back && back->workload == runs.workload);
    }

    void torchTitanConfigOfAPipelinedGpt()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = pipelinedPlan(m);
        document.workload.zeroStage = 3;
        const std::string text = exportTorchTitanConfig(m, document, 8);
        const std::string expected = R"(
[parallelism]
data_parallel_replicate_degree = 1
data_parallel_shard_degree = 2
fsdp_reshard_after_forward = "always"
tensor_parallel_degree = 2
enable_async_tensor_parallel = false
pipeline_parallel_degree = 2
pipeline_parallel_schedule = "Interleaved1F1B"
pipeline_parallel_split_points = ["transformer.h.1", "transformer.h.2", "transformer.h.3"]
pipeline_parallel_microbatch_size = 1

[activation_checkpoint]
mode = "selective"
selective_ac_option = "op"

[training]
local_batch_size = 8
global_batch_size = 16
seq_len = 1024
mixed_precision_param = "bfloat16"
mixed_precision_reduce = "float32"
)";
        QVERIFY2(text.ends_with(expected), text.c_str());
        QVERIFY2(contains(text, "#   - selective recomputation: Tapestry recomputes attention's core"), text.c_str());

        const TrainingStackImport back = imported(text, "gpt-pp.toml", m, 8);
        QCOMPARE(back.warnings, std::vector<std::string>{});
        QCOMPARE(back.document.plan.strategies, document.plan.strategies);
        QCOMPARE(back.document.plan.pipeline.stages, 2);
        QCOMPARE(back.document.plan.pipeline.virtualStages, 2);
        QCOMPARE(back.document.plan.pipeline.schedule, PipelineSchedule::Interleaved);
        QCOMPARE(back.document.plan.pipeline.chunkStarts, (std::vector<std::size_t>{0, 1, 2, 3}));
        // torchtitan has no switch for overlap (the default); "op" selects its op-level policy,
        // which its export writes without a note, and its checkpoint is non-reentrant.
        Workload expectedWorkload = withStackImplementations(document.workload, TrainingStack::TorchTitan);
        expectedWorkload.overlap = true;
        QVERIFY(back.document.workload == expectedWorkload);
        QVERIFY(!contains(exportTorchTitanConfig(m, back.document, 8), "selective recomputation:"));
    }

    void torchTitanRoundTripsZeroStagesAndGPipe()
    {
        const FoldedModel& m = gpt(8);
        for (const int zero : {0, 2, 3}) {
            PlanDocument document = pipelinedPlan(m);
            document.plan.pipeline = {2, 1, PipelineSchedule::GPipe, {0, 3}};
            document.workload.zeroStage = zero;
            document.workload.recompute = Recomputation::Full;
            document.workload.microBatch = 2;
            // Replayed whole, as Megatron-LM's checkpoint does: torchtitan's stops early, which
            // the file's plan prices.
            QVERIFY(contains(exportTorchTitanConfig(m, document, 8),
                             "full recomputation replaying whole blocks (Megatron-LM's reentrant checkpoint): "
                             "torchtitan's non-reentrant checkpoint stops each replay before the block's last matmul"));
            // As a torchtitan search prices it: the file is that plan.
            document.workload = withStackImplementations(document.workload, TrainingStack::TorchTitan);
            const std::string text = exportTorchTitanConfig(m, document, 8);
            QVERIFY2(!contains(text, "Not expressible"), text.c_str());
            QVERIFY2(contains(text, "pipeline_parallel_schedule = \"GPipe\"\n"
                                    "pipeline_parallel_split_points = [\"transformer.h.3\"]\n"),
                     text.c_str());
            const TrainingStackImport back = imported(text, "gpipe.toml", m, 8);
            QCOMPARE(back.document.plan.pipeline, document.plan.pipeline);
            QVERIFY2(back.document.workload == document.workload, text.c_str());
        }
        // ZeRO 1 has no torchtitan form: written (and read back) as FSDP that keeps parameters
        // gathered from forward to backward (ZeRO 2: the same traffic), with a note.
        PlanDocument zero1 = pipelinedPlan(m);
        const std::string text = exportTorchTitanConfig(m, zero1, 8);
        QVERIFY(contains(text, "#   - ZeRO stage 1: torchtitan's data parallelism replicates (DDP) or shards"));
        QVERIFY2(contains(text, "data_parallel_replicate_degree = 1\n"), text.c_str());
        QVERIFY2(contains(text, "fsdp_reshard_after_forward = \"never\"\n"), text.c_str());
        QCOMPARE(imported(text, "zero1.toml", m, 8).document.workload.zeroStage, 2);
    }

    // A sequence that no even count divides (ViT-L/16's 197 patches and class token) runs
    // whole without context parallelism: both stacks' files are written and read back.
    void oddSequencesRoundTripWithoutContextParallelism()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = pipelinedPlan(m);
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"dp", 8}});
        document.workload.sequence = 197;
        document.workload = withStackImplementations(document.workload, TrainingStack::Megatron);
        QCOMPARE(imported(exportMegatronArguments(m, document, 8), "vit.sh", m, 8).document.workload.sequence,
                 std::int64_t{197});
        document.workload = withStackImplementations(document.workload, TrainingStack::TorchTitan);
        QCOMPARE(imported(exportTorchTitanConfig(m, document, 8), "vit.toml", m, 8).document.workload.sequence,
                 std::int64_t{197});
    }

    // A plan priced in FP8 exports Transformer Engine's FP8 flags and torchao's converters,
    // and both read back as the same recipe; the PyTorch export names torchao's conversion.
    void fp8PlansExportTheirRecipes()
    {
        const FoldedModel& m = gpt();
        for (const char* precision : {"fp8", "mxfp8"}) {
            PlanDocument document = pipelinedPlan(m);
            QVERIFY(setPrecision(document.workload, precision));
            const bool mx = document.workload.fp8 == Fp8Recipe::Block;
            const std::string megatron = exportMegatronArguments(m, document, 8);
            QVERIFY2(contains(megatron, mx ? "--fp8-format e4m3 --fp8-recipe mxfp8" : "--fp8-format hybrid --fp8-recipe tensorwise"),
                     megatron.c_str());
            const TrainingStackImport back = imported(megatron, "fp8.sh", m, 8);
            Workload expected = withStackImplementations(document.workload, TrainingStack::Megatron);
            expected.pipelineSendOverlap = false;  // written --no-overlap-p2p-communication, as priced
            // Written --use-precision-aware-optimizer, which on bf16 weights keeps the masters'
            // remainders where the plan priced whole masters (the file notes that).
            expected.optimizerStep = OptimizerStep::FusedRemainders;
            QVERIFY(back.document.workload == expected);
            const std::string titan = exportTorchTitanConfig(m, document, 8);
            QVERIFY2(contains(titan, mx ? "converters = [\"quantize.linear.mx\"]\n\n[quantize.linear.mx]\nrecipe_name = \"mxfp8_cublas\"\n"
                                        : "converters = [\"quantize.linear.float8\"]\n\n[quantize.linear.float8]\nrecipe_name = \"tensorwise\"\n"),
                     titan.c_str());
            QVERIFY(contains(titan, "filter_fqns = [\"output\"]\n"));
            QCOMPARE(imported(titan, "fp8.toml", m, 8).document.workload.fp8, document.workload.fp8);
            // Under this plan's tensor parallelism (2) torchtitan's tensorwise float8 casts the
            // inputs before the gather and keeps FP8 copies as Transformer Engine does: no note
            // either way; its MXFP8 saves the 16-bit inputs: noted both ways. Its files read
            // back as torchtitan runs them.
            const char* fp8Note = "FP8 layers priced as";
            QCOMPARE(contains(titan, fp8Note), mx);
            QVERIFY(!contains(megatron, fp8Note));
            PlanDocument titanPriced = document;
            titanPriced.workload = withStackImplementations(document.workload, TrainingStack::TorchTitan);
            QCOMPARE(titanPriced.workload.fp8Implementation,
                     mx ? Fp8Implementation::Torchao : Fp8Implementation::TorchaoFloat8TensorParallel);
            QCOMPARE(contains(exportMegatronArguments(m, titanPriced, 8), fp8Note), mx);
            QCOMPARE(imported(titan, "fp8.toml", m, 8).document.workload.fp8Implementation,
                     titanPriced.workload.fp8Implementation);
            // FP8 weights without a 16-bit copy: Megatron-LM's --fp8-param-gather, read back;
            // torchao keeps its bfloat16 weights, which the torchtitan file says.
            PlanDocument fp8Weights = document;
            fp8Weights.workload.fp8Parameters = true;
            const std::string gathered = exportMegatronArguments(m, fp8Weights, 8);
            QVERIFY2(contains(gathered, "--fp8-param-gather"), gathered.c_str());
            QVERIFY(!contains(megatron, "--fp8-param-gather"));
            const Workload gatheredBack = imported(gathered, "fp8.sh", m, 8).document.workload;
            QVERIFY(gatheredBack.fp8Parameters);
            // Its --use-precision-aware-optimizer keeps whole fp32 masters of FP8 weights.
            QVERIFY(contains(gathered, "--use-precision-aware-optimizer"));
            QCOMPARE(gatheredBack.optimizerStep, OptimizerStep::Fused);
            QVERIFY(!back.document.workload.fp8Parameters);
            const std::string titanWeights = exportTorchTitanConfig(m, fp8Weights, 8);
            QVERIFY2(contains(titanWeights, "torchao's float8 layers keep their bfloat16 weights"), titanWeights.c_str());
            QVERIFY(!imported(titanWeights, "fp8.toml", m, 8).document.workload.fp8Parameters);
            // Today's Python config sets torchao's converter on the Trainer.Config, and a
            // torchtitan search's FP8 plan is that file's plan (no note).
            const std::string python = exportTorchTitanTrainerConfig(m, document, 8);
            QVERIFY2(contains(python, mx ? "FLOAT8_RECIPE = \"mxfp8_cublas\"" : "FLOAT8_RECIPE = \"tensorwise\""),
                     python.c_str());
            QVERIFY(contains(python, "config.model_converters.converters = [\n"));
            QVERIFY2(!contains(python, "FP8 training"), python.c_str());
            QCOMPARE(imported(python, "fp8.py", m, 8).document.workload.fp8, document.workload.fp8);
            QVERIFY(contains(exportPyTorchPlan(m, document), mx ? "torchao.prototype.mx_formats" : "torchao.float8.convert_to_float8_training"));
        }
        PlanDocument bf16 = pipelinedPlan(m);
        QVERIFY(!contains(exportMegatronArguments(m, bf16, 8), "--fp8"));
        QVERIFY(!contains(exportTorchTitanConfig(m, bf16, 8), "converters"));
        const std::string python = exportTorchTitanTrainerConfig(m, bf16, 8);
        QVERIFY(contains(python, "FLOAT8_RECIPE = None"));
        QCOMPARE(imported(python, "bf16.py", m, 8).document.workload.fp8, Fp8Recipe::None);
        // A recipe Tapestry does not price is refused, naming the line.
        std::string rowwise = python;
        rowwise.replace(rowwise.find("FLOAT8_RECIPE = None"), 20, "FLOAT8_RECIPE = \"rowwise\"");
        QVERIFY2(contains(importError(rowwise, "rowwise.py"), "rowwise.py: ") &&
                     contains(importError(rowwise, "rowwise.py"), "FLOAT8_RECIPE is not None, \"tensorwise\" or \"mxfp8_cublas\""),
                 importError(rowwise, "rowwise.py").c_str());
        QVERIFY(!contains(exportPyTorchPlan(m, bf16), "torchao"));
    }

    void torchTitanReadsHandWrittenConfigs()
    {
        const FoldedModel& m = gpt();
        // torchtitan's own block names, a multi-line array, comments, defaults for the rest.
        const std::string text = "[job]\ndescription = \"llama # not a comment\"\n\n"
                                 "[parallelism]\n"
                                 "data_parallel_replicate_degree = 1\n"
                                 "tensor_parallel_degree = 2  # inside a node\n"
                                 "pipeline_parallel_degree = 2\n"
                                 "pipeline_parallel_split_points = [\n    'h.2',  # half\n]\n"
                                 "[training]\nlocal_batch_size = 4\nseq_len = 2_048\n";
        QVERIFY(isTorchTitanConfig(text));
        const TrainingStackImport back = imported(text, "llama.toml", m, 8);
        QCOMPARE(back.document.plan.mesh, (std::vector<MeshAxis>{{"dp", 2}, {"tp", 2}}));  // shard -1: the rest
        QCOMPARE(back.document.plan.pipeline.chunkStarts, (std::vector<std::size_t>{0, 2}));
        QCOMPARE(back.document.workload.zeroStage, 3);  // FSDP, torchtitan's default
        QCOMPARE(back.document.workload.recompute, Recomputation::Selective);
        QCOMPARE(back.document.workload.microBatch, std::int64_t(1));
        QCOMPARE(back.document.workload.batch, std::int64_t(8));  // local 4 x dp 2
        QCOMPARE(back.document.workload.sequence, std::int64_t(2048));
        QCOMPARE(back.warnings, (std::vector<std::string>{"selective_ac_option \"2\" (every n-th block fully "
                                                          "recomputed) is read as Tapestry's selective recomputation"}));
    }

    void badFilesAreErrorsNamingTheFile()
    {
        QVERIFY2(contains(importError("--tensor-model-parallel-size 2 --recompute-granularity sometimes\n", "run.sh"),
                          "run.sh: --recompute-granularity 'sometimes' is not selective or full"),
                 importError("--tensor-model-parallel-size 2 --recompute-granularity sometimes\n", "run.sh").c_str());
        QVERIFY(contains(importError("--tensor-model-parallel-size ${TP}\n", "run.sh"),
                         "run.sh: --tensor-model-parallel-size '${TP}' is not a whole number from 1 to 1048576"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2147483647 --pipeline-model-parallel-size 2\n", "run.sh"),
                         "run.sh: --tensor-model-parallel-size '2147483647' is not a whole number from 1 to 1048576"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 4 --pipeline-model-parallel-size 2\n", "run.sh", 12),
                         "run.sh: pipeline 2 x tensor parallel 4 does not divide the cluster's 12 GPUs"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2\n", "run.sh", 0),
                         "run.sh: does not say the data-parallel size: it follows from the GPU count"));
        QVERIFY(contains(importError("--pipeline-model-parallel-size 2 --num-layers 24\n", "run.sh"),
                         "run.sh: says the model has 24 layers; this model has 4 blocks"));
        QVERIFY(contains(importError("--pipeline-model-parallel-size 3 --num-layers 4 "
                                     "--decoder-first-pipeline-num-layers 1\n",
                                     "run.sh", 6),
                         "run.sh: the first/last pipeline stage layers leave 3 of 4 layers for 2 other stages"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --virtual-pipeline-model-parallel-size 2\n", "run.sh"),
                         "run.sh: virtual pipeline stages need --pipeline-model-parallel-size above 1"));

        const std::string sizes = "[parallelism]\ndata_parallel_shard_degree = 2\ntensor_parallel_degree = 2\n"
                                  "pipeline_parallel_degree = 2\n";
        QVERIFY(contains(importError(sizes, "job.toml", 16),
                         "job.toml: says pipeline 2 x data parallel 2 x tensor parallel 2 = 8 GPUs; the cluster has 16"));
        QVERIFY(contains(importError(sizes + "pipeline_parallel_schedule = \"ZBVZeroBubble\"\n", "job.toml"),
                         "job.toml: line 5: pipeline_parallel_schedule \"ZBVZeroBubble\" is not one Tapestry prices"));
        QVERIFY(contains(importError(sizes + "pipeline_parallel_split_points = [\"layers.9\"]\n", "job.toml"),
                         "job.toml: line 5: split point \"layers.9\" names no block of the model"));
        QVERIFY(contains(importError(sizes + "tensor_parallel_degree 2\n", "job.toml"),
                         "job.toml: line 5: Error while parsing key-value pair: expected '='"));
        QVERIFY(contains(importError(sizes + "[training]\nseq_len = \"long\"\n", "job.toml"),
                         "job.toml: line 6: training.seq_len is a string, not a whole number"));
        QVERIFY(contains(importError("[parallelism]\ntensor_parallel_degree = 0\n", "job.toml"),
                         "job.toml: line 2: parallelism.tensor_parallel_degree = 0 is not a degree of 1 or more"));
        QVERIFY(contains(importError("[activation_checkpoint]\nmode = \"some\"\n", "job.toml"),
                         "job.toml: line 2: activation_checkpoint mode \"some\" is not none, selective or full"));
        // Neither stack's file: left to the other importers.
        QVERIFY(!importTrainingStackPlan("{\"a.b\": \"colwise\"}", "tp_plan.json", gpt(), 8));
    }

    void exportsAreRegisteredFormats()
    {
        QCOMPARE(exportFormatFromName("megatron"), std::optional<ExportFormat>(ExportFormat::Megatron));
        QCOMPARE(exportFormatFromName("torchtitan"), std::optional<ExportFormat>(ExportFormat::TorchTitan));
        QCOMPARE(exportFormatFromName("torchtitan-toml"), std::optional<ExportFormat>(ExportFormat::TorchTitanToml));
        const FoldedModel& m = gpt();
        QVERIFY(renderExport(ExportFormat::TorchTitan, m, pipelinedPlan(m)).starts_with("# torchtitan config"));
        QVERIFY(renderExport(ExportFormat::TorchTitanToml, m, pipelinedPlan(m)).starts_with("# torchtitan job config"));
    }

    void pyTorchExportShardsCheckpointsAndSplits()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = pipelinedPlan(m);
        document.workload.zeroStage = 3;
        document.workload.recompute = Recomputation::Full;
        const std::string text = exportPyTorchPlan(m, document);
        QVERIFY2(contains(text, "MESH_SHAPE = (2, 2, 2)\nMESH_AXES = (\"pp\", \"dp\", \"tp\")\n"), text.c_str());
        // Four chunks of one block, two per pipeline rank (interleaved), the embedding
        // before the first and the head after the last.
        QVERIFY2(contains(text, "PIPELINE_STAGES = 2\nPIPELINE_CHUNKS = [\n    (\"transformer.h.0\",),\n"
                                "    (\"transformer.h.1\",),\n    (\"transformer.h.2\",),\n    (\"transformer.h.3\",),\n]\n"),
                 text.c_str());
        // 16 sequences = 8 micro-batches of 1 on each of the 2 data-parallel ranks.
        QVERIFY2(contains(text, "MICRO_BATCHES = 8 "), text.c_str());
        QVERIFY2(contains(text, "    return ScheduleInterleaved1F1B(stages, n_microbatches=MICRO_BATCHES, loss_fn=scaled_loss)\n"),
                 text.c_str());
        QVERIFY2(contains(text, "BLOCKS = [\n    \"transformer.h.0\",\n"), text.c_str());
        QVERIFY2(contains(text, "    model = parallelize_module(model, mesh[TENSOR_AXIS], _held(model, TENSOR_PLAN))\n"
                                "    for path, block in list(_blocks(model)):\n"
                                "        parent, _, name = path.rpartition(\".\")\n"
                                "        model.get_submodule(parent).register_module(name, _checkpoint(block))\n"
                                "    for _, block in _blocks(model):\n"
                                "        fully_shard(block, mesh=data_mesh(mesh), reshard_after_forward=True)\n"
                                "    fully_shard(model, mesh=data_mesh(mesh), reshard_after_forward=True)\n"
                                "    return model\n"),
                 text.c_str());
        QVERIFY(contains(text, "from torch.distributed.fsdp import fully_shard\n"));
        QVERIFY(contains(text, "    return checkpoint_wrapper(block)\n"));

        // ZeRO 2 keeps parameters gathered; selective recomputation gets its policy.
        document.workload.zeroStage = 2;
        document.workload.recompute = Recomputation::Selective;
        const std::string selective = exportPyTorchPlan(m, document);
        QVERIFY(contains(selective, "fully_shard(model, mesh=data_mesh(mesh), reshard_after_forward=False)\n"));
        QVERIFY2(contains(selective, "    policy = partial(create_selective_checkpoint_contexts, _recompute_attention_core)\n"
                                     "    return checkpoint_wrapper(block, context_fn=policy)\n"),
                 selective.c_str());
        QVERIFY(contains(selective, "    torch.ops.aten._softmax.default,\n"));

        // No pipeline and no recomputation: no chunks, no schedule, no checkpoint.
        document.workload.zeroStage = 1;
        document.workload.recompute = Recomputation::None;
        document.plan.pipeline = {};
        const std::string plain = exportPyTorchPlan(m, document);
        QVERIFY2(contains(plain, "    model = parallelize_module(model, mesh[TENSOR_AXIS], TENSOR_PLAN)\n"), plain.c_str());
        QVERIFY(!contains(plain, "PIPELINE_CHUNKS"));
        QVERIFY(!contains(plain, "checkpoint_wrapper"));
        QVERIFY(!contains(plain, "pipelining"));
    }

    // The files as bash and Python's tomllib read them, where they are installed (CI's
    // bootstrap installs python3).
    void bashAndTomllibReadTheExports()
    {
#ifndef TAPESTRY_PYTHON3
        QSKIP("python3 (3.11 or later, for tomllib) was not found when configuring");
#else
        const FoldedModel& m = gpt(8);
        PlanDocument document = pipelinedPlan(m);
        // Notes with quotes and a plan name that needs escaping in comments.
        document.plan.name = "gpt \"pp\"\nsecond line";
        document.plan.pipeline = {4, 1, PipelineSchedule::OneFOneB, {0, 1, 3, 6}};
        QTemporaryDir dir;
        const std::string toml = writeTemporary(dir, "job.toml", exportTorchTitanConfig(m, document, 1));
        const QString parsed =
            runTool(QStringLiteral(TAPESTRY_PYTHON3),
                    {QStringLiteral("-c"),
                     QStringLiteral("import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))"),
                     QString::fromStdString(toml)});
        QVERIFY2(!parsed.startsWith(QStringLiteral("failed")), qPrintable(parsed));
        const nlohmann::json config = nlohmann::json::parse(parsed.toStdString());
        QCOMPARE(config["parallelism"]["pipeline_parallel_degree"].get<int>(), 4);
        QCOMPARE(config["parallelism"]["pipeline_parallel_split_points"].get<std::vector<std::string>>(),
                 (std::vector<std::string>{"transformer.h.1", "transformer.h.3", "transformer.h.6"}));
        QCOMPARE(config["parallelism"]["enable_async_tensor_parallel"].get<bool>(), false);
        QCOMPARE(config["training"]["global_batch_size"].get<int>(), 16);
        QCOMPARE(config["activation_checkpoint"]["mode"].get<std::string>(), std::string("selective"));

        const std::string megatron = writeTemporary(dir, "run.sh", exportMegatronArguments(m, document, 1));
        const QString words = runTool(QStringLiteral("bash"),
                                      {QStringLiteral("-c"),
                                       QStringLiteral("source \"$1\"; printf '%s\\n' \"${MEGATRON_ARGS[@]}\""),
                                       QStringLiteral("bash"), QString::fromStdString(megatron)});
        QVERIFY2(words.startsWith(QStringLiteral("--tensor-model-parallel-size\n2\n--pipeline-model-parallel-size\n4\n")),
                 qPrintable(words));

        // The PyTorch files compile as Python (torch is not needed to parse them).
        for (const int zero : {0, 2, 3})
            for (const Recomputation recompute : {Recomputation::None, Recomputation::Selective, Recomputation::Full}) {
                document.workload.zeroStage = zero;
                document.workload.recompute = recompute;
                const std::string python = writeTemporary(dir, "plan.py", exportPyTorchPlan(m, document));
                const QString compiled = runTool(
                    QStringLiteral(TAPESTRY_PYTHON3),
                    {QStringLiteral("-c"), QStringLiteral("import ast, sys; ast.parse(open(sys.argv[1]).read()); print('ok')"),
                     QString::fromStdString(python)});
                QVERIFY2(compiled == QStringLiteral("ok\n"), qPrintable(compiled));
            }
#endif
    }

    // Today's torchtitan config gets the checkpointing policy the plan was priced with:
    // tapestry_plan run against torchtitan's classes as its config registry has them
    // (torchtitan/distributed/activation_checkpoint.py: FullAC.Config, SelectiveAC.Config,
    // None for no checkpointing; Trainer.Config's default is SelectiveAC.Config), and the
    // reader takes "selective" as torchtitan's op-level policy.
    // torchtitan's data-parallel layout (torchTitanDataParallel), which both of its config
    // forms write: ZeRO 1-3 shard over every data rank (resharding after forward only under
    // ZeRO 3); without FSDP the ranks replicate, except that the shard degree covers the
    // expert ranks beyond the context- and tensor-parallel ones; experts that do not fit so
    // are written without expert parallelism.
    void torchTitanLaysDataParallelismOutOnce()
    {
        TrainingStackSettings s;
        s.dataParallel = 32;
        const auto layout = [&](int zero) {
            s.workload.zeroStage = zero;
            const TorchTitanDataParallel d = torchTitanDataParallel(s);
            return std::tuple{d.replicate, d.shard, d.sharded, d.reshardAfterForward, d.expertParallel};
        };
        QVERIFY((layout(0) == std::tuple{32, 1, false, false, 1}));
        QVERIFY((layout(1) == std::tuple{1, 32, true, false, 1}));
        QVERIFY((layout(2) == std::tuple{1, 32, true, false, 1}));
        QVERIFY((layout(3) == std::tuple{1, 32, true, true, 1}));
        s.expertParallel = 8;
        s.tensorParallel = 2;  // borrowed: 8 experts over tp 2 x 4 shard ranks
        QVERIFY((layout(0) == std::tuple{8, 4, false, false, 8}));
        QVERIFY((layout(3) == std::tuple{1, 32, true, true, 8}));
        s.expertTensorParallel = 2;  // tensor-parallel experts borrow no tensor ranks: 8 shard ranks
        QVERIFY((layout(0) == std::tuple{4, 8, false, false, 8}));
        s.expertParallel = 3;  // 3 does not divide 32
        QVERIFY((layout(0) == std::tuple{32, 1, false, false, 1}));
        // HSDP: 4 replicas of 8 shard ranks, the experts' 8 ranks from one replica's shard ranks.
        s.expertParallel = 8;
        s.expertTensorParallel = 1;
        s.workload.zeroReplicas = 4;
        QVERIFY((layout(3) == std::tuple{4, 8, true, true, 8}));
        QVERIFY((layout(2) == std::tuple{4, 8, true, false, 8}));
        s.workload.zeroReplicas = 8;  // 4 shard ranks: 8 experts over tp 2 x 4
        QVERIFY((layout(3) == std::tuple{8, 4, true, true, 8}));
        s.workload.zeroReplicas = 16;  // 2 shard ranks leave no room for 8 / 2 expert ranks
        QVERIFY((layout(3) == std::tuple{16, 2, true, true, 1}));
        s.workload.zeroReplicas = 1;

        // Both forms write it: the TOML and the Python config of the same plan.
        const FoldedModel& m = gpt();
        PlanDocument document = pipelinedPlan(m);
        for (const int zero : {0, 2, 3}) {
            document.workload.zeroStage = zero;
            const std::string toml = exportTorchTitanConfig(m, document, 8);
            const std::string python = exportTorchTitanTrainerConfig(m, document, 8);
            const TorchTitanDataParallel d = torchTitanDataParallel(trainingStackSettings(m, document, 8));
            for (const auto& [key, value] : {std::pair{"data_parallel_replicate_degree", d.replicate},
                                             std::pair{"data_parallel_shard_degree", d.shard}}) {
                QVERIFY2(contains(toml, std::string(key) + " = " + std::to_string(value) + "\n"), toml.c_str());
                QVERIFY2(contains(python, std::string("--parallelism.") + key + " " + std::to_string(value) + " "),
                         python.c_str());
            }
        }
    }

    // HSDP (Workload::zeroReplicas): torchtitan's two forms write replicate 2 x shard 4 for 8
    // data-parallel ranks and read it back as the same workload; the PyTorch export runs
    // fully_shard on a 2-D mesh of the data ranks; Megatron-LM notes that it shards over all.
    void hybridShardingRoundTripsThroughTheStacks()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = torchTitanDataParallelPlan(m, "hsdp", 3);
        document.workload.zeroReplicas = 2;
        const std::string toml = exportTorchTitanConfig(m, document, 8);
        const std::string python = exportTorchTitanTrainerConfig(m, document, 8);
        QVERIFY2(!contains(toml, "Not expressible") && !contains(python, "Not expressible"), toml.c_str());
        QVERIFY2(contains(toml, "data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 4\n"), toml.c_str());
        QVERIFY2(contains(python, "\"data_parallel_replicate_degree\": 2,\n    \"data_parallel_shard_degree\": 4,"),
                 python.c_str());
        for (const auto& [text, name] : {std::pair{toml, "hsdp.toml"}, std::pair{python, "hsdp.py"}}) {
            const TrainingStackImport back = imported(text, name, m, 8);
            QVERIFY2(back.document.workload == document.workload, text.c_str());
        }
        QVERIFY(stacksRunning(m, document) == std::vector{TrainingStack::TorchTitan});
        // The PyTorch export runs it too, with eager modules' activations (its own plan).
        PlanDocument eager = document;
        eager.workload = withStackImplementations(document.workload, TrainingStack::PyTorch);
        QVERIFY(stacksRunning(m, eager) == std::vector{TrainingStack::PyTorch});

        const std::string pytorch = exportPyTorchPlan(m, eager);
        QVERIFY2(contains(pytorch, "DATA_REPLICAS = 2 "), pytorch.c_str());
        QVERIFY2(contains(pytorch, "    shard_mesh = hsdp_mesh(mesh)\n    for _, block in _blocks(model):\n"
                                   "        fully_shard(block, mesh=shard_mesh, reshard_after_forward=True)\n"),
                 pytorch.c_str());
        QVERIFY(imported(pytorch, "hsdp_plan.py", m, 8).document.workload == eager.workload);
        // One shard group: no 2-D mesh.
        PlanDocument fsdp = eager;
        fsdp.workload.zeroReplicas = 1;
        QVERIFY(!contains(exportPyTorchPlan(m, fsdp), "hsdp_mesh"));

        QVERIFY(contains(exportMegatronArguments(m, document, 8),
                         "HSDP (2 replicas of a shard group): Megatron-LM shards over every data-parallel rank"));
    }

    // FSDP's reduce type (Workload::gradientReduceType) is torchtitan's
    // mixed_precision_reduce in both config forms, read back as the same workload (and
    // through the PyTorch export's plan); Megatron-LM's fp32 main gradients are another
    // thing, which torchtitan does not run: noted.
    void torchTitanWritesFsdpsReduceType()
    {
        const FoldedModel& m = gpt();
        PlanDocument document = torchTitanDataParallelPlan(m, "reduce", 2);
        Workload& w = document.workload;
        for (const auto& [type, name] : {std::pair{DataType::Float32, "float32"}, std::pair{DataType::BFloat16, "bfloat16"}}) {
            w.gradientReduceType = type;
            const std::string toml = exportTorchTitanConfig(m, document, 8);
            const std::string python = exportTorchTitanTrainerConfig(m, document, 8);
            QVERIFY2(contains(toml, std::string("mixed_precision_reduce = \"") + name + "\"\n"), toml.c_str());
            QVERIFY2(contains(python, std::string("\"mixed_precision_reduce\": \"") + name + "\""), python.c_str());
            QVERIFY2(!contains(toml, "Not expressible") && !contains(python, "Not expressible"), python.c_str());
            for (const auto& [text, file] : {std::pair{toml, "reduce.toml"}, std::pair{python, "reduce.py"}})
                QVERIFY2(imported(text, file, m, 8).document.workload == document.workload, text.c_str());
            // The PyTorch export's plan: the same, priced with its eager modules' activations.
            QVERIFY(imported(exportPyTorchPlan(m, document), "reduce_plan.py", m, 8).document.workload ==
                    withStackImplementations(document.workload, TrainingStack::PyTorch));
        }
        w.fp32MainGradients = true;
        QVERIFY(contains(exportTorchTitanTrainerConfig(m, document, 8),
                         "fp32 main gradients (Megatron-LM's, accumulated by the GEMMs): torchtitan keeps 16-bit "
                         "gradients and reduces them in mixed_precision_reduce"));
    }

    void torchTitanPythonSetsTheCheckpointingPolicy()
    {
        const FoldedModel& m = gpt(8);
        PlanDocument document = pipelinedPlan(m);
        document.workload.zeroStage = 3;
        document.workload.selective = SelectiveRecomputation::EveryOtherMatmul;
        for (const auto& [recompute, policy] : {std::pair{Recomputation::None, "None"},
                                                std::pair{Recomputation::Selective, "SelectiveAC.Config"},
                                                std::pair{Recomputation::Full, "FullAC.Config"}}) {
            document.workload.recompute = recompute;
            const std::string text = exportTorchTitanTrainerConfig(m, document, 1);
            QVERIFY2(!contains(text, "selective recomputation:"), text.c_str());  // no note: torchtitan runs it
            const TrainingStackSettings back = parseTorchTitanTrainerConfig(text, "plan.py", m);
            QCOMPARE(back.workload.recompute, recompute);
            QCOMPARE(back.workload.selective, SelectiveRecomputation::EveryOtherMatmul);
#ifdef TAPESTRY_PYTHON3
            QTemporaryDir dir;
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("torchtitan/distributed")));
            writeTemporary(dir, "torchtitan/__init__.py", "");
            writeTemporary(dir, "torchtitan/distributed/__init__.py", "");
            writeTemporary(dir, "torchtitan/distributed/activation_checkpoint.py",
                           "from dataclasses import dataclass\n"
                           "class FullAC:\n    @dataclass\n    class Config:\n        pass\n"
                           "class SelectiveAC:\n    @dataclass\n    class Config:\n        pass\n");
            const std::string plan = writeTemporary(dir, "plan.py", text);
            const std::string run = writeTemporary(
                dir, "run.py",
                "import dataclasses, importlib.util, sys\n"
                "from torchtitan.distributed.activation_checkpoint import SelectiveAC\n"
                "spec = importlib.util.spec_from_file_location('plan', sys.argv[1])\n"
                "plan = importlib.util.module_from_spec(spec)\n"
                "spec.loader.exec_module(plan)\n"
                "def fields_of(name, keys):\n"
                "    return dataclasses.make_dataclass(name, [(k, object, None) for k in keys])()\n"
                "Trainer = dataclasses.make_dataclass('Config', [('parallelism', object), ('training', object),\n"
                "    ('activation_checkpoint', object, dataclasses.field(default_factory=SelectiveAC.Config))])\n"
                "config = plan.tapestry_plan(Trainer(fields_of('P', plan.PARALLELISM), fields_of('T', plan.TRAINING)))\n"
                "ac = config.activation_checkpoint\n"
                "print('None' if ac is None else type(ac).__qualname__)\n");
            const QString printed = runTool(QStringLiteral(TAPESTRY_PYTHON3),
                                            {QString::fromStdString(run), QString::fromStdString(plan)});
            QCOMPARE(printed, QString::fromLatin1(policy) + QStringLiteral("\n"));
#endif
        }
    }

    // tapestry_plan sets FP8 as torchtitan's own FP8 configs do: the model converter of the
    // recipe (torchtitan/components/quantization/float8.py, Float8LinearConverter; mx.py,
    // MXLinearConverter; each Config with recipe_name and filter_fqns) in
    // Trainer.Config.model_converters.converters, the output head filtered out.
    void torchTitanPythonSetsTheFp8Converters()
    {
#ifdef TAPESTRY_PYTHON3
        const FoldedModel& m = gpt();
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("torchtitan/distributed")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("torchtitan/components/quantization")));
        for (const char* package : {"torchtitan/__init__.py", "torchtitan/distributed/__init__.py",
                                    "torchtitan/components/__init__.py", "torchtitan/components/quantization/__init__.py"})
            writeTemporary(dir, package, "");
        writeTemporary(dir, "torchtitan/distributed/activation_checkpoint.py",
                       "class FullAC:\n    Config = dict\nclass SelectiveAC:\n    Config = dict\n");
        const char* converter = "from dataclasses import dataclass, field\n"
                                "class %s:\n    @dataclass(kw_only=True)\n    class Config:\n"
                                "        recipe_name: str = 'default'\n"
                                "        filter_fqns: list = field(default_factory=list)\n";
        for (const auto& [file, name] : {std::pair{"torchtitan/components/quantization/float8.py", "Float8LinearConverter"},
                                         std::pair{"torchtitan/components/quantization/mx.py", "MXLinearConverter"}}) {
            char text[512];
            std::snprintf(text, sizeof text, converter, name);
            writeTemporary(dir, file, text);
        }
        const std::string run = writeTemporary(
            dir, "run.py",
            "import importlib.util, sys, types\n"
            "spec = importlib.util.spec_from_file_location('plan', sys.argv[1])\n"
            "plan = importlib.util.module_from_spec(spec)\n"
            "spec.loader.exec_module(plan)\n"
            "config = types.SimpleNamespace(parallelism=types.SimpleNamespace(), training=types.SimpleNamespace(),\n"
            "    activation_checkpoint=None, model_converters=types.SimpleNamespace(converters=[]))\n"
            "plan.replace = lambda obj, **kw: obj\n"
            "for c in plan.tapestry_plan(config).model_converters.converters:\n"
            "    print(type(c).__qualname__, c.recipe_name, c.filter_fqns)\n");
        for (const auto& [precision, printed] :
             {std::pair{"fp8", "Float8LinearConverter.Config tensorwise ['output']\n"},
              std::pair{"mxfp8", "MXLinearConverter.Config mxfp8_cublas ['output']\n"}, std::pair{"bf16", ""}}) {
            PlanDocument document = pipelinedPlan(m);
            document.plan.pipeline = PipelineLayout{};  // no model parts to rename
            QVERIFY(setPrecision(document.workload, precision));
            const std::string plan = writeTemporary(dir, "plan.py", exportTorchTitanTrainerConfig(m, document, 8));
            QCOMPARE(runTool(QStringLiteral(TAPESTRY_PYTHON3), {QString::fromStdString(run), QString::fromStdString(plan)}),
                     QString::fromLatin1(printed));
        }
#else
        QSKIP("no python3");
#endif
    }
};

QTEST_GUILESS_MAIN(TrainingStackExportTest)
#include "TrainingStackExportTest.moc"
