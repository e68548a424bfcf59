// Pipelines in the plan space: named meshes with a "pp" axis, the devices of a stage,
// the stage partition (checked against every partition of a small model), the search
// on a pipelined mesh and the pipeline in plan files.
#include "FoldedTestModel.h"
#include "base/Error.h"
#include "cluster/MeshText.h"
#include "cluster/PipelineStages.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "search/SearchSession.h"
#include "search/StagePartition.h"

#include <QTest>

#include <algorithm>

using namespace tapestry;
using namespace tapestry::test;

namespace {

template <typename F>
bool throwsCode(ErrorCode code, F&& f)
{
    try {
        f();
    } catch (const Error& error) {
        return error.code() == code;
    }
    return false;
}

double slowestMicroBatch(const PlanEvaluation& evaluation)
{
    double slowest = 0;
    for (const StageCost& stage : evaluation.stages)
        slowest = std::max(slowest, stage.microBatchSeconds);
    return slowest;
}

}  // namespace

class PipelineSearchTest : public QObject {
    Q_OBJECT

private slots:
    void meshTextNamesAxes()
    {
        QCOMPARE(parseMeshText("pp=8,dp=2,tp=8"), (std::vector<MeshAxis>{{"pp", 8}, {"dp", 2}, {"tp", 8}}));
        QCOMPARE(parseMeshText("2x8"), (std::vector<MeshAxis>{{"dp", 2}, {"tp", 8}}));
        QCOMPARE(parseMeshText("16"), (std::vector<MeshAxis>{{"d", 16}}));
        QCOMPARE(meshText({{"pp", 8}, {"dp", 2}, {"tp", 8}}), std::string("pp=8,dp=2,tp=8"));
        for (const char* bad : {"pp=0,tp=8", "pp=8,pp=2", "2x", "=4", "pp=x", "pp=2,tp", "4x2097152"})
            QVERIFY2(throwsCode(ErrorCode::InvalidMesh, [&] { (void)parseMeshText(bad); }), bad);
        // The pipeline axis goes first wherever it is written.
        const PipelinedMesh split = splitPipelineAxis(parseMeshText("dp=2,pp=8,tp=8"));
        QCOMPARE(split.stages, 8);
        QCOMPARE(split.wholeAxes(), (std::vector<MeshAxis>{{"pp", 8}, {"dp", 2}, {"tp", 8}}));
    }

    // Stage s holds devices [s n, (s + 1) n): whole nodes, or an equal part of one.
    void stagesAreWholeNodesOrPartsOfOne()
    {
        const Cluster sixteen = testCluster("dgx-h100x16");
        const PipelineStages eight = pipelineStages(sixteen, 8);
        QCOMPARE(eight.stageCluster.nodes, 2);
        QCOMPARE(eight.stageCluster.gpusPerNode, 8);
        QCOMPARE(eight.boundaryLink, sixteen.interNode);
        const Cluster one = testCluster("dgx-h100x1");
        const PipelineStages two = pipelineStages(one, 2);
        QCOMPARE(two.stageCluster.nodes, 1);
        QCOMPARE(two.stageCluster.gpusPerNode, 4);
        QCOMPARE(two.boundaryLink, one.intraNode);
        QVERIFY(throwsCode(ErrorCode::InvalidMesh, [&] { (void)pipelineStages(sixteen, 3); }));
        QVERIFY(throwsCode(ErrorCode::InvalidMesh, [&] { (void)pipelineStages(one, 3); }));

        // 16 GPUs, 8 per node: p = 2 (t = 1, 2, 4, 8), 4 (t = 1, 2, 4), 8 (t = 1, 2), 16 (t = 1).
        const std::vector<std::vector<MeshAxis>> meshes = pipelineMeshes(testCluster("dgx-h100x2"), 16);
        QCOMPARE(meshes.size(), std::size_t{10});
        QCOMPARE(meshes.front(), (std::vector<MeshAxis>{{"pp", 2}, {"dp", 8}, {"tp", 1}}));
        QCOMPARE(meshes.back(), (std::vector<MeshAxis>{{"pp", 16}, {"dp", 1}, {"tp", 1}}));
        QCOMPARE(pipelineMeshes(testCluster("dgx-h100x2"), 4).size(), std::size_t{7});
    }

    // On two GB200 NVL72 racks a stage is part of a rack or whole racks, never a part of
    // each of two; the sends between stages cross racks; tensor parallelism of a pipelined
    // mesh reaches as far as a rack's NVLink (any divisor of 72).
    void stagesOnNvlinkDomains()
    {
        const Cluster racks = testCluster("gb200-nvl72x2");
        const PipelineStages two = pipelineStages(racks, 2);
        QCOMPARE(two.stageCluster.deviceCount(), 72);
        QCOMPARE(two.stageCluster.nvlinkDomainSize(), 72);
        QCOMPARE(two.boundaryLink, racks.interNode);
        QCOMPARE(pipelineStages(racks, 4).stageCluster.nvlinkDomainSize(), 36);
        QVERIFY(throwsCode(ErrorCode::InvalidMesh, [&] { (void)pipelineStages(racks, 3); }));  // 48 GPUs straddle racks
        QCOMPARE(pipelineStages(testCluster("gb200-nvl72x1"), 2).boundaryLink, racks.intraNode);
        const std::vector<std::vector<MeshAxis>> meshes = pipelineMeshes(racks, 2);
        // t in 1, 2, 3, 4, 6, 8, 9, 12, 18, 24, 36, 72.
        QCOMPARE(meshes.size(), std::size_t{12});
        QCOMPARE(meshes.back(), (std::vector<MeshAxis>{{"pp", 2}, {"dp", 1}, {"tp", 72}}));
    }

    // GPT-2 small's head (768 x 50257) costs several blocks: the balanced partition gives
    // the last stage fewer blocks, and no partition of the 8 blocks into 4 stages has a
    // faster slowest stage (all 35 are priced).
    void balancedStagesAreTheBestPartition()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 8);
        const Cluster cluster = testCluster("dgx-h100x1");
        const PipelineStages stages = pipelineStages(cluster, 4);
        const DeviceMesh mesh({{"dp", 1}, {"tp", 2}}, stages.stageCluster);
        Workload w = workload(32, 1024);
        w.microBatch = 1;
        PipelineLayout layout;
        layout.stages = 4;
        const CostModel costs(m.graph(), m.coarse, m.families, stages.stageCluster, mesh, w,
                              PipelineSetting{layout, stages.boundaryLink});
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        plan.pipeline = layout;
        const PlanEvaluation even = costs.evaluate(plan);
        const std::vector<std::size_t> balanced =
            balancedChunkStarts(even, layout, m.coarse, m.families, costs.microSteps(), 80e9);
        QCOMPARE(balanced.size(), std::size_t{4});
        QVERIFY2(8 - balanced.back() < 2, "the head's stage keeps fewer blocks");
        plan.pipeline.chunkStarts = balanced;
        const double balancedSlowest = slowestMicroBatch(costs.evaluate(plan));
        QVERIFY(balancedSlowest < slowestMicroBatch(even));
        double bestSlowest = std::numeric_limits<double>::infinity();
        for (std::size_t a = 1; a < 8; ++a) {
            for (std::size_t b = a + 1; b < 8; ++b) {
                for (std::size_t c = b + 1; c < 8; ++c) {
                    plan.pipeline.chunkStarts = {0, a, b, c};
                    bestSlowest = std::min(bestSlowest, slowestMicroBatch(costs.evaluate(plan)));
                }
            }
        }
        QVERIFY2(balancedSlowest <= bestSlowest * (1 + 1e-6),
                 qPrintable(QString::number(balancedSlowest) + QStringLiteral(" vs ") + QString::number(bestSlowest)));
    }

    // The session on a pipelined mesh: a plan with that many stages, a micro-batch it
    // chose, no slower than the expert plans it priced, and its pipeline survives a plan
    // file.
    void searchOnAPipelinedMesh()
    {
        auto m = std::make_shared<const FoldedModel>(foldSynthPreset("gpt2-small", 8));
        SearchSetup setup;
        setup.cluster = testCluster("dgx-h100x1");
        setup.mesh = parseMeshText("pp=2,dp=2,tp=2");
        setup.workload = workload(64, 1024);
        const std::shared_ptr<const SearchOutcome> outcome = SearchSession(m, setup).run();
        const std::shared_ptr<const PlanCandidate> best = outcome->best();
        QVERIFY(best);
        // On the searched mesh, or on its 8 GPUs as a stack lays them out (an `any` search's
        // plan may be a stack's own layout).
        QCOMPARE(planDeviceCount(best->plan), 8);
        QCOMPARE(best->plan.pipeline.stages, 2);
        QCOMPARE(best->evaluation.stages.size(), std::size_t{2});
        QVERIFY(best->workload.microBatch >= 1 && best->workload.microBatch <= 8);
        // Its micro-batches split the batch over its data ranks: dp, or dp x tp when the plan
        // splits the batch over the tensor axis too.
        const int dataRanks = best->evaluation.dataParallelDegree;
        QVERIFY(dataRanks == 2 || dataRanks == 4);
        QCOMPARE(best->evaluation.microBatches, int(64 / (dataRanks * best->workload.microBatch)));
        QVERIFY(best->memoryBytes() <= outcome->memoryLimitBytes);
        for (const auto& expert : outcome->meshes.front().experts) {
            QCOMPARE(expert->plan.pipeline.stages, 2);
            if (expert->memoryBytes() <= outcome->memoryLimitBytes)
                QVERIFY(best->stepSeconds() <= expert->stepSeconds());
        }
        QVERIFY(outcome->meshOf(*best));

        PlanDocument document;
        document.plan = best->plan;
        document.workload = best->workload;
        const PlanDocument read = planFromJson(planToJson(document, m->coarse, m->families), "p.json", m->coarse, m->families);
        QCOMPARE(read.plan.pipeline.stages, best->plan.pipeline.stages);
        QCOMPARE(read.plan.pipeline.virtualStages, best->plan.pipeline.virtualStages);
        QCOMPARE(read.plan.pipeline.schedule, best->plan.pipeline.schedule);
        QCOMPARE(read.plan.pipeline.chunkStarts,
                 chunkStarts(best->plan.pipeline, modelBlocks(m->families).size()));
        QCOMPARE(planMeshAxes(read.plan), planMeshAxes(best->plan));
    }

    void planFilesRejectBadPipelines()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 4);
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"dp", 1}, {"tp", 8}});
        document.plan.pipeline.stages = 2;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("\"stages\": 2") != std::string::npos);
        auto rejects = [&](const std::string& from, const std::string& to, const char* says) {
            std::string bad = json;
            const std::size_t at = bad.find(from);
            if (at == std::string::npos)
                return false;
            bad.replace(at, from.size(), to);
            try {
                (void)planFromJson(bad, "bad.json", m.coarse, m.families);
            } catch (const Error& error) {
                return error.code() == ErrorCode::InvalidPlan && error.file() == "bad.json" &&
                       error.message().find(says) != std::string::npos;
            }
            return false;
        };
        QVERIFY(rejects("\"1f1b\"", "\"zigzag\"", "schedule 'zigzag'"));
        QVERIFY(rejects("\"stages\": 2", "\"stages\": 8", "needs 8 blocks"));
        QVERIFY(rejects("\"virtual_stages\": 1", "\"virtual_stages\": 2", "interleaved"));
        QVERIFY(rejects("\"2\"", "\"9\"", "chunk starts"));
    }

    // A cost model prices plans with its own stage count only.
    void costModelRefusesAnotherStageCount()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 4);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 512));
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        plan.pipeline.stages = 2;
        QVERIFY(throwsCode(ErrorCode::InvalidPlan, [&] { (void)costs.evaluate(plan); }));
    }
};

QTEST_GUILESS_MAIN(PipelineSearchTest)
#include "PipelineSearchTest.moc"
