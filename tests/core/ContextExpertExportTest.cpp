// Context and expert parallelism through Megatron-LM arguments and torchtitan configs:
// the degrees and variants the exports write, export -> import round trips that come back
// with the same degrees and the same price (Llama-3-8B with ring attention and Ulysses
// over 8 GPUs at 32k tokens, two Mixtral 8x7B layers with the experts over 8 of 32 GPUs),
// the notes for layouts the stacks cannot take, and the import's errors.
#include "base/Error.h"
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "TrainingStackImports.h"
#include "cost/CostModel.h"
#include "export/MegatronArguments.h"
#include "export/PyTorchPlanExport.h"
#include "export/TorchTitanConfig.h"
#include "export/TorchTitanTrainerConfig.h"
#include "export/TrainingStackImport.h"
#include "target/StackRules.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "search/PlanSearch.h"

#include <QTest>

using namespace tapestry;
using namespace tapestry::test;

namespace {

const FoldedModel& llama()
{
    static const FoldedModel model = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
    return model;
}

const FoldedModel& mixtral()
{
    static const FoldedModel model = foldSynthPreset("mixtral-8x7b", 2);
    return model;
}

PlanEvaluation price(const FoldedModel& m, const Cluster& cluster, const PlanDocument& document)
{
    const DeviceMesh mesh(document.plan.mesh, cluster);
    const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, document.workload);
    return costs.evaluate(document.plan);
}

// `document` priced as Megatron-LM runs it (grouped-query K/V kept with their own heads),
// which its export writes with no note and imports back as.
PlanDocument runByMegatron(PlanDocument document)
{
    document.workload = withStackImplementations(document.workload, TrainingStack::Megatron);
    return document;
}

// Llama-3-8B's attention context parallel over the 8 GPUs of a node: one sequence of
// 32768 tokens, ZeRO 1.
PlanDocument contextParallelPlan(ExpertPlanKind kind)
{
    PlanDocument document;
    document.plan = makeExpertPlan(kind, llama().coarse, {{"cp", 8}});
    document.workload = workload(1, 32768);
    document.workload.microBatch = 1;
    document.workload.zeroStage = 1;
    return document;
}

// Mixtral's experts spread over the 8 GPUs of each of 4 nodes, data parallel over all 32.
PlanDocument expertParallelPlan(int zeroStage, std::vector<MeshAxis> mesh = {{"dp", 4}, {"ep", 8}})
{
    const FoldedModel& m = mixtral();
    const Cluster cluster = testCluster("dgx-h100x4");
    PlanDocument document;
    document.workload = workload(32, 2048);
    document.workload.microBatch = 1;
    document.workload.zeroStage = zeroStage;
    document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh);
    const DeviceMesh deviceMesh(mesh, cluster);
    const CostModel costs(m.graph(), m.coarse, m.families, cluster, deviceMesh, document.workload);
    const std::size_t axis = mesh.front().name == "ep" ? 0 : 1;
    for (const CoarseNode& node : m.coarse.nodes)
        if (isLegalSplit(node.kind, AxisSplit::Expert) && costs.facts(node.id).experts > 0)
            document.plan.strategies[node.id.index()].axes[axis] = AxisSplit::Expert;
    return document;
}

std::string importError(const std::string& text, const std::string& fileName, const FoldedModel& m, int gpus)
{
    try {
        (void)importTrainingStackPlan(text, fileName, m, gpus);
    } catch (const Error& error) {
        return error.what();
    }
    return "no error";
}

// The same step time, memory and all-to-all time.
void verifySamePrice(const PlanEvaluation& a, const PlanEvaluation& b)
{
    QVERIFY2(near(a.total.time.stepSeconds(), b.total.time.stepSeconds(), 1e-9),
             qPrintable(QString::number(a.total.time.stepSeconds()) + QStringLiteral(" vs ") +
                        QString::number(b.total.time.stepSeconds())));
    QVERIFY2(near(a.total.memory.total(), b.total.memory.total(), 1e-9),
             qPrintable(QString::number(a.total.memory.total()) + QStringLiteral(" vs ") +
                        QString::number(b.total.memory.total())));
    const auto allToAll = static_cast<std::size_t>(CollectiveKind::AllToAll);
    QVERIFY(near(a.total.time.byCollective[allToAll], b.total.time.byCollective[allToAll], 1e-9));
}

}  // namespace

class ContextExpertExportTest : public QObject {
    Q_OBJECT

private slots:
    void ringAttentionRoundTripsThroughBothStacks()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const PlanDocument document = runByMegatron(contextParallelPlan(ExpertPlanKind::RingAttention));
        const PlanEvaluation original = price(llama(), cluster, document);

        const std::string megatron = exportMegatronArguments(llama(), document, 8);
        QVERIFY2(contains(megatron, "    --context-parallel-size 8\n    --cp-comm-type p2p\n"), megatron.c_str());
        QVERIFY2(contains(megatron, "# pipeline 1 x data parallel 1 x context parallel 8 x tensor parallel 1 = 8 GPUs.\n"),
                 megatron.c_str());
        QVERIFY2(!contains(megatron, "Not expressible"), megatron.c_str());
        const TrainingStackImport fromMegatron = imported(megatron, "cp.sh", llama(), 8);
        QCOMPARE(fromMegatron.warnings, std::vector<std::string>{});
        const Plan& back = fromMegatron.document.plan;
        QCOMPARE(contextParallelDegree(back, llama().coarse), 8);
        QCOMPARE(contextParallelVariant(back, llama().coarse, 1), ContextParallelVariant::Ring);
        verifySamePrice(price(llama(), cluster, fromMegatron.document), original);

        const std::string titan = exportTorchTitanConfig(llama(), document, 8);
        QVERIFY2(contains(titan, "tensor_parallel_degree = 1\nenable_async_tensor_parallel = false\n"
                                 "context_parallel_degree = 8\n"),
                 titan.c_str());
        const TrainingStackImport fromTitan = imported(titan, "cp.toml", llama(), 8);
        QCOMPARE(contextParallelDegree(fromTitan.document.plan, llama().coarse), 8);
        QCOMPARE(fromTitan.document.plan.strategies, back.strategies);
    }

    // torchtitan shards parameters over the context-parallel ranks whenever context
    // parallelism is on (ParallelDims.fsdp_enabled: dp_shard > 1 or cp > 1). Llama-3-8B with
    // ring attention over 8 GPUs: at ZeRO 0 the plan is noted and written as FSDP keeping
    // parameters gathered (ZeRO 2), and both of torchtitan's forms read back as ZeRO 2, at
    // ZeRO 2's price; at ZeRO 2 nothing is noted.
    void torchTitanShardsOverContextParallelRanks()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        PlanDocument document = contextParallelPlan(ExpertPlanKind::RingAttention);
        document.workload = withStackImplementations(document.workload, TrainingStack::TorchTitan);
        document.workload.zeroStage = 0;
        QVERIFY(!stackInexpressible(TrainingStack::TorchTitan, llama(), document).empty());
        PlanDocument zero2 = document;
        zero2.workload.zeroStage = 2;
        QVERIFY(stackInexpressible(TrainingStack::TorchTitan, llama(), zero2).empty());
        const std::string toml = exportTorchTitanConfig(llama(), document, 8);
        QVERIFY2(contains(toml, "ZeRO stage 0 with context parallelism") &&
                     contains(toml, "fsdp_reshard_after_forward = \"never\"\n"),
                 toml.c_str());
        const std::string python = exportTorchTitanTrainerConfig(llama(), document, 8);
        for (const auto& [text, fileName] : {std::pair{toml, "cp.toml"}, std::pair{python, "cp.py"}}) {
            const TrainingStackImport back = imported(text, fileName, llama(), 8);
            QCOMPARE(back.document.workload.zeroStage, 2);
            verifySamePrice(price(llama(), cluster, back.document), price(llama(), cluster, zero2));
        }
    }

    void ulyssesIsAllToAllInMegatronAndRingInTorchTitan()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const PlanDocument document = contextParallelPlan(ExpertPlanKind::Ulysses);
        const std::string megatron = exportMegatronArguments(llama(), document, 8);
        QVERIFY2(contains(megatron, "    --context-parallel-size 8\n    --cp-comm-type a2a\n"), megatron.c_str());
        const TrainingStackImport back = imported(megatron, "ulysses.sh", llama(), 8);
        QCOMPARE(contextParallelVariant(back.document.plan, llama().coarse, 1), ContextParallelVariant::Ulysses);
        // Megatron-LM's implementations, with the plan's fused optimizer step (ZeRO 1: written
        // --use-precision-aware-optimizer, which keeps the bf16 weights' master remainders).
        PlanDocument runs = runByMegatron(document);
        runs.workload.optimizerStep = OptimizerStep::FusedRemainders;
        verifySamePrice(price(llama(), cluster, back.document), price(llama(), cluster, runs));

        const std::string titan = exportTorchTitanConfig(llama(), document, 8);
        QVERIFY2(contains(titan, "#   - DeepSpeed-Ulysses attention: torchtitan's context parallelism is ring attention"),
                 titan.c_str());
        QVERIFY2(contains(titan, "context_parallel_degree = 8\n"), titan.c_str());
        const std::string python = exportPyTorchPlan(llama(), document);
        QVERIFY2(contains(python, "#   - mesh axis 'cp' runs DeepSpeed-Ulysses attention; PyTorch's context_parallel is "
                                  "ring attention: written as ring attention\n"),
                 python.c_str());
        // Its code runs other splits than any plan file says: the file keeps the plan as
        // priced, ZeRO 1 included, and says so.
        QVERIFY(contains(python, "(PLAN_DOCUMENT is the plan as priced; the code runs it as said)"));
        QVERIFY(imported(python, "ulysses.py", llama(), 8).document.workload == document.workload);
        PlanDocument ringPlan = contextParallelPlan(ExpertPlanKind::RingAttention);
        // ZeRO 1 is noted: the module shards with FSDP2, keeping parameters gathered (ZeRO 2).
        QVERIFY(contains(exportPyTorchPlan(llama(), ringPlan), "#   - ZeRO stage 1: the PyTorch export shards with FSDP2"));
        ringPlan.workload = withStackImplementations(ringPlan.workload, TrainingStack::PyTorch);
        ringPlan.workload.zeroStage = 2;
        const std::string ring = exportPyTorchPlan(llama(), ringPlan);
        QVERIFY2(contains(ring, "        stack.enter_context(context_parallel(mesh[\"cp\"]))\n"), ring.c_str());
        QVERIFY2(contains(ring, "BATCH_AXES = ()  # the batch splits over these\nCONTEXT_AXES = (\"cp\",)"), ring.c_str());
        QVERIFY2(!contains(ring, "Not expressible"), ring.c_str());
    }

    void contextParallelWithTensorParallelKeepsBothAxes()
    {
        // Megatron-LM's layout on tp 2 inside cp 4 (Megatron-LM's rank order): imported
        // from arguments, exported again word for word.
        const std::string arguments = "--tensor-model-parallel-size 2 --sequence-parallel --context-parallel-size 4 "
                                      "--cp-comm-type p2p --seq-length 32768 --micro-batch-size 1 "
                                      "--global-batch-size 1 --bf16 --use-flash-attn\n";
        const TrainingStackImport first = imported(arguments, "tp-cp.sh", llama(), 8);
        const Plan& plan = first.document.plan;
        QCOMPARE(plan.mesh, (std::vector<MeshAxis>{{"dp", 1}, {"cp", 4}, {"tp", 2}}));
        QCOMPARE(contextParallelDegree(plan, llama().coarse), 4);
        const std::string again = exportMegatronArguments(llama(), first.document, 8);
        QVERIFY2(contains(again, "    --tensor-model-parallel-size 2\n"), again.c_str());
        QVERIFY2(contains(again, "    --sequence-parallel\n    --context-parallel-size 4\n    --cp-comm-type p2p\n"),
                 again.c_str());
        QVERIFY2(!contains(again, "Not expressible"), again.c_str());
        QCOMPARE(imported(again, "again.sh", llama(), 8).document.plan.strategies, plan.strategies);

        // A context-parallel axis outside the data-parallel one is said, not rearranged.
        PlanDocument outside = contextParallelPlan(ExpertPlanKind::RingAttention);
        outside.plan = makeExpertPlan(ExpertPlanKind::RingAttention, llama().coarse, {{"dp", 2}, {"cp", 4}});
        for (NodeStrategy& s : outside.plan.strategies)
            std::swap(s.axes[0], s.axes[1]);
        outside.plan.mesh = {{"cp", 4}, {"dp", 2}};
        const std::string noted = exportMegatronArguments(llama(), outside, 8);
        QVERIFY2(contains(noted, "context-parallel axis 'cp' lies outside data-parallel axis 'dp'"), noted.c_str());
        QVERIFY2(contains(noted, "    --context-parallel-size 4\n"), noted.c_str());
    }

    // The PyTorch file carries the plan it was written from: import-plan reads it back, and
    // the plan prices the same (Megatron-LM's layout with sequence parallelism on dp 2 x tp 4,
    // ring attention over cp 4 beside dp 2, tp 2 x cp 2 x dp 2 from Megatron-LM arguments,
    // and a pipeline of 2 stages of dp 2 x tp 2 with ZeRO 3 and full recomputation, compared
    // as a plan: test_pytorch_exports prices it with tapestry-cli evaluate).
    void pyTorchExportReadsBackAsTheSamePlan()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        std::vector<PlanDocument> documents;
        PlanDocument sequenceParallel;
        sequenceParallel.plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, llama().coarse, {{"dp", 2}, {"tp", 4}});
        sequenceParallel.workload.batch = 16;
        sequenceParallel.workload.sequence = 2048;
        documents.push_back(sequenceParallel);
        PlanDocument ring = contextParallelPlan(ExpertPlanKind::RingAttention);
        ring.plan = makeExpertPlan(ExpertPlanKind::RingAttention, llama().coarse, {{"dp", 2}, {"cp", 4}});
        ring.workload.batch = 2;
        documents.push_back(ring);
        documents.push_back(imported("--tensor-model-parallel-size 2 --sequence-parallel --context-parallel-size 2 "
                                     "--seq-length 32768 --micro-batch-size 1 --global-batch-size 2 --bf16\n",
                                     "tp-cp.sh", llama(), 8)
                                .document);
        PlanDocument pipelined = sequenceParallel;
        pipelined.plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, llama().coarse, {{"dp", 2}, {"tp", 2}});
        pipelined.plan.pipeline = {2, 1, PipelineSchedule::OneFOneB, {}};
        pipelined.workload.microBatch = 2;
        pipelined.workload.zeroStage = 3;
        pipelined.workload.recompute = Recomputation::Full;
        documents.push_back(pipelined);
        for (const PlanDocument& given : documents) {
            // Each workload as the export runs it (ZeRO 0 and 1 as FSDP2 keeping parameters
            // gathered, ZeRO 2): the file has no note and reads back as that plan.
            const PlanDocument document = pyTorchRunnablePlan(llama(), given);
            QCOMPARE(document.workload.zeroStage, std::max(2, given.workload.zeroStage));
            // The workload the export runs is PyTorch's implementations, and the plan says so.
            if (!(document.workload == given.workload))
                QCOMPARE(document.implementations, TrainingStack::PyTorch);
            const std::string python = exportPyTorchPlan(llama(), document);
            QVERIFY2(!contains(python, "Not expressible"), python.c_str());
            // The plan as given reads back as the same plan too.
            QVERIFY(imported(exportPyTorchPlan(llama(), given), "given.py", llama(), 8).document.workload ==
                    document.workload);
            const TrainingStackImport back = imported(python, "plan.py", llama(), 8);
            QVERIFY(back.warnings.empty());
            QCOMPARE(back.document.implementations, document.implementations);
            QCOMPARE(back.document.plan.mesh, document.plan.mesh);
            QCOMPARE(back.document.plan.strategies, document.plan.strategies);
            QCOMPARE(back.document.plan.pipeline.stages, document.plan.pipeline.stages);
            const std::size_t blocks = modelBlocks(llama().families).size();
            QCOMPARE(chunkStarts(back.document.plan.pipeline, blocks), chunkStarts(document.plan.pipeline, blocks));
            QCOMPARE(back.document.workload.zeroStage, document.workload.zeroStage);
            QCOMPARE(back.document.workload.recompute, document.workload.recompute);
            QCOMPARE(back.document.workload.microBatch, document.workload.microBatch);
            if (!document.plan.pipeline.active())
                verifySamePrice(price(llama(), cluster, back.document), price(llama(), cluster, document));
        }
        // Ring attention on an axis outside the data-parallel one: the sub-meshes name their
        // axes in the mesh's order.
        PlanDocument outside = ring;
        outside.plan = makeExpertPlan(ExpertPlanKind::RingAttention, llama().coarse, {{"dp", 2}, {"cp", 4}});
        for (NodeStrategy& s : outside.plan.strategies)
            std::swap(s.axes[0], s.axes[1]);
        outside.plan.mesh = {{"cp", 4}, {"dp", 2}};
        const std::string swapped = exportPyTorchPlan(llama(), outside);
        QVERIFY2(contains(swapped, "BATCH_AXES = (\"dp\",)  # the batch splits over these\n"
                                   "CONTEXT_AXES = (\"cp\",)  # the sequence splits over these (ring attention)\n"
                                   "DATA_AXES = (\"cp\", \"dp\")  # the batch and context axes"),
                 swapped.c_str());
        QVERIFY2(contains(swapped, "    mesh[DATA_AXES]._flatten(\"cp_dp\")"), swapped.c_str());

        QVERIFY(!importPyTorchPlanExport("plan = {}\n", "other.py", llama()));
        try {
            (void)importPyTorchPlanExport("PLAN_DOCUMENT = r\"\"\"\n{\n", "cut.py", llama());
            QFAIL("an unclosed PLAN_DOCUMENT was read");
        } catch (const Error& error) {
            QVERIFY2(contains(error.what(), "cut.py") && contains(error.what(), "no closing"), error.what());
        }
    }

    void expertParallelismRoundTripsWithTheSamePrice()
    {
        const Cluster cluster = testCluster("dgx-h100x4");
        const PlanDocument document = runByMegatron(expertParallelPlan(1));
        QCOMPARE(expertParallelDegree(document.plan), 8);
        const PlanEvaluation original = price(mixtral(), cluster, document);

        const std::string megatron = exportMegatronArguments(mixtral(), document, 8);
        QVERIFY2(contains(megatron, "    --expert-model-parallel-size 8\n    --expert-tensor-parallel-size 1\n"),
                 megatron.c_str());
        QVERIFY2(contains(megatron, "# pipeline 1 x data parallel 32 x tensor parallel 1 = 32 GPUs, experts over 8.\n"),
                 megatron.c_str());
        QVERIFY2(contains(megatron, "--num-experts, --moe-router-topk"), megatron.c_str());
        QVERIFY2(!contains(megatron, "Not expressible"), megatron.c_str());
        const TrainingStackImport back = imported(megatron, "ep.sh", mixtral(), 32);
        QCOMPARE(back.warnings, std::vector<std::string>{});
        QCOMPARE(back.document.plan.mesh, (std::vector<MeshAxis>{{"dp", 4}, {"ep", 8}, {"tp", 1}}));
        QCOMPARE(expertParallelDegree(back.document.plan), 8);
        verifySamePrice(price(mixtral(), cluster, back.document), original);

        // torchtitan borrows expert ranks from FSDP's shard dimension: with FSDP (ZeRO 3,
        // priced as torchtitan's FSDP2) the plan comes back as it was.
        PlanDocument sharded = expertParallelPlan(3);
        sharded.workload = withStackImplementations(sharded.workload, TrainingStack::TorchTitan);
        const std::string titan = exportTorchTitanConfig(mixtral(), sharded, 8);
        QVERIFY2(contains(titan, "data_parallel_replicate_degree = 1\ndata_parallel_shard_degree = 32\n"), titan.c_str());
        QVERIFY2(contains(titan, "expert_parallel_degree = 8\nexpert_tensor_parallel_degree = 1\n"), titan.c_str());
        const TrainingStackImport fromTitan = imported(titan, "ep.toml", mixtral(), 32);
        QCOMPARE(expertParallelDegree(fromTitan.document.plan), 8);
        verifySamePrice(price(mixtral(), cluster, fromTitan.document), price(mixtral(), cluster, sharded));

        // Without FSDP (DDP, ZeRO 0) the shard degree covers the expert ranks, and the file says so.
        const std::string replicated = exportTorchTitanConfig(mixtral(), expertParallelPlan(0), 8);
        QVERIFY2(contains(replicated, "data_parallel_replicate_degree = 4\ndata_parallel_shard_degree = 8\n"),
                 replicated.c_str());
        QVERIFY2(contains(replicated, "data parallel 32 written as replicate 4 x shard 8"), replicated.c_str());

        const std::string python = exportPyTorchPlan(mixtral(), document);
        QVERIFY2(contains(python, "#   - mesh axis 'ep' spreads the experts of the mixture-of-experts layers; PyTorch has "
                                  "no expert-parallel style"),
                 python.c_str());
    }

    void expertsWithAndWithoutTensorParallelismInside()
    {
        // Megatron-LM's default: the experts as tensor parallel as the rest (column-parallel
        // w1 and w3, row-parallel w2), spread over the next 4 ranks out.
        const std::string inside = "--tensor-model-parallel-size 2 --expert-model-parallel-size 4\n";
        const Plan tensorParallel = imported(inside, "etp2.sh", mixtral(), 32).document.plan;
        QCOMPARE(tensorParallel.mesh, (std::vector<MeshAxis>{{"dp", 4}, {"ep", 4}, {"tp", 2}}));
        QCOMPARE(expertParallelDegree(tensorParallel), 4);
        int checked = 0;
        for (const CoarseNode& node : mixtral().coarse.nodes) {
            if (node.name != "model/layers.0/block_sparse_moe/experts.5/w2/MatMul")
                continue;
            QCOMPARE(tensorParallel.strategy(node.id).axes,
                     (AxisSplits{AxisSplit::Batch, AxisSplit::Expert, AxisSplit::Row}));
            ++checked;
        }
        QCOMPARE(checked, 1);
        PlanDocument document;
        document.plan = tensorParallel;
        document.workload = withStackImplementations(workload(32, 2048), TrainingStack::Megatron);
        const std::string again = exportMegatronArguments(mixtral(), document, 8);
        QVERIFY2(contains(again, "    --expert-model-parallel-size 4\n    --expert-tensor-parallel-size 2\n"), again.c_str());
        QVERIFY2(!contains(again, "Not expressible"), again.c_str());

        // Expert tensor parallelism 1: the experts spread over the tensor-parallel ranks
        // first, then 2 data-parallel ones.
        const Plan spread =
            imported(inside + "--expert-tensor-parallel-size 1\n", "etp1.sh", mixtral(), 32).document.plan;
        QCOMPARE(spread.mesh, (std::vector<MeshAxis>{{"dp", 8}, {"ep", 2}, {"tp", 2}}));
        QCOMPARE(expertParallelDegree(spread), 4);
        document.plan = spread;
        const std::string written = exportMegatronArguments(mixtral(), document, 8);
        QVERIFY2(contains(written, "    --expert-model-parallel-size 4\n    --expert-tensor-parallel-size 1\n"),
                 written.c_str());
        QVERIFY2(!contains(written, "Not expressible"), written.c_str());
    }

    void aSearchedExpertParallelPlanKeepsItsDegrees()
    {
        // ExpertParallelTest's search: two Mixtral layers on one DGX-H100 under 40 GB spread
        // the experts over all 8 GPUs; Megatron-LM's arguments carry that degree back.
        const FoldedModel& m = mixtral();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"ep", 8}}, cluster);
        PlanDocument document;
        document.workload = workload(8, 1024);
        document.workload.zeroStage = 1;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, document.workload);
        SearchOptions options = fastestPlanOnly();
        options.memoryLimitBytes = 40e9;
        const SearchResult result = searchPlan(costs, m.coarse, m.families, options);
        QVERIFY(result.best);
        document.plan = result.best->plan;
        QCOMPARE(expertParallelDegree(document.plan), 8);
        const std::string megatron = exportMegatronArguments(m, document, 8);
        QVERIFY2(contains(megatron, "    --expert-model-parallel-size 8\n"), megatron.c_str());
        const TrainingStackImport back = imported(megatron, "searched.sh", m, 8);
        QCOMPARE(expertParallelDegree(back.document.plan), 8);
        QCOMPARE(contextParallelDegree(back.document.plan, m.coarse), contextParallelDegree(document.plan, m.coarse));
        QVERIFY(price(m, cluster, back.document).fitsInMemory());
    }

    void expertsOnOuterRanksAreNoted()
    {
        // The experts spread over the 4 nodes instead of the 8 GPUs inside each: the stacks
        // take expert ranks from the inside out.
        const PlanDocument outer = expertParallelPlan(3, {{"ep", 4}, {"dp", 8}});
        QCOMPARE(expertParallelDegree(outer.plan), 4);
        const std::string megatron = exportMegatronArguments(mixtral(), outer, 8);
        QVERIFY2(contains(megatron, "    --expert-model-parallel-size 4\n"), megatron.c_str());
        QVERIFY2(contains(megatron, "experts spread over 'ep': Megatron-LM and torchtitan take expert-parallel ranks "
                                    "from the inside out ('dp', 'ep')"),
                 megatron.c_str());
    }

    void capacityFactorTravelsWithMegatronArguments()
    {
        PlanDocument document = expertParallelPlan(1);
        document.workload.capacityFactor = 1.25;
        const std::string megatron = exportMegatronArguments(mixtral(), document, 8);
        QVERIFY2(contains(megatron, "    --moe-expert-capacity-factor 1.25\n    --moe-pad-expert-input-to-capacity\n"),
                 megatron.c_str());
        const TrainingStackImport back = imported(megatron, "ep.sh", mixtral(), 32);
        QCOMPARE(back.document.workload.capacityFactor, 1.25);
        QCOMPARE(back.warnings, std::vector<std::string>{});
        const std::string titan = exportTorchTitanConfig(mixtral(), document, 8);
        QVERIFY2(contains(titan, "#   - capacity factor 1.25: torchtitan routes tokens without a capacity"), titan.c_str());
    }

    void badContextAndExpertArgumentsAreErrorsNamingTheFile()
    {
        const FoldedModel& dense = llama();
        QVERIFY2(contains(importError("--expert-model-parallel-size 8\n--tensor-model-parallel-size 1\n", "ep.sh", dense, 8),
                          "ep.sh: says expert parallel 8; the model has no mixture-of-experts layer"),
                 importError("--expert-model-parallel-size 8\n--tensor-model-parallel-size 1\n", "ep.sh", dense, 8).c_str());
        QVERIFY(contains(importError("--tensor-model-parallel-size 1 --context-parallel-size 2 --cp-comm-type ring\n",
                                     "cp.sh", dense, 8),
                         "cp.sh: --cp-comm-type 'ring' is not p2p, a2a, allgather or a2a+p2p"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 1 --context-parallel-size 3\n", "cp.sh", dense, 8),
                         "cp.sh: pipeline 1 x context parallel 3 x tensor parallel 1 does not divide the cluster's 8 GPUs"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --expert-model-parallel-size 4 "
                                     "--expert-tensor-parallel-size 4\n",
                                     "ep.sh", mixtral(), 32),
                         "ep.sh: expert tensor parallel 4 is neither 1 nor the tensor parallel 2"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 1 --expert-model-parallel-size 3\n", "ep.sh",
                                     mixtral(), 32),
                         "ep.sh: expert parallel 3 takes 3 data-parallel ranks of 32"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 1 --moe-expert-capacity-factor 0\n", "ep.sh",
                                     mixtral(), 32),
                         "ep.sh: --moe-expert-capacity-factor '0' is not a number above 0 and up to 1024"));
        QVERIFY(contains(importError("[parallelism]\ncontext_parallel_degree = 0\n", "cp.toml", dense, 8),
                         "cp.toml: line 2: parallelism.context_parallel_degree = 0 is not a degree of 1 or more"));
    }
};

QTEST_GUILESS_MAIN(ContextExpertExportTest)
#include "ContextExpertExportTest.moc"
