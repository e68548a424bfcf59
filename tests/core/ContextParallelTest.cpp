// Context parallelism against closed forms (training.md, "Context parallelism"): ring
// attention moves (cp - 1)/cp of the K and V bytes to each rank per layer and pass,
// DeepSpeed-Ulysses swaps sequence and head splits with all-to-alls of q, k, v and the
// output, and both divide the activations by cp.
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"

#include <QTest>

#include <map>

using namespace tapestry;
using namespace tapestry::test;

namespace {

double collectiveSeconds(const CostBreakdown& cost, CollectiveKind kind)
{
    return cost.time.byCollective[static_cast<std::size_t>(kind)];
}

}  // namespace

class ContextParallelTest : public QObject {
    Q_OBJECT

private slots:
    void ringAttentionMovesKeysAndValuesAroundTheRing()
    {
        // Llama with 4 heads of 32 and 2 KV heads (grouped-query attention): K and V are
        // b x s x 2 x 32 before their repeat; the ring sends them unrepeated.
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"cp", 4}}, cluster);
        Workload workload = test::workload(2, 1024);
        workload.overlap = false;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        const Plan ring = makeExpertPlan(ExpertPlanKind::RingAttention, m.coarse, mesh.axes());
        const PlanEvaluation e = costs.evaluate(ring);
        const CostBreakdown layer = instanceCost(m, e, 1);

        // Forward: K and V each gathered once; backward: gathered again, and their
        // gradients reduce-scattered back. S is the whole K (or V) of the cp group: one
        // sequence per data-parallel rank.
        const double kv = 1.0 * 1024 * 2 * 32 * 2;
        const double pass = ringGatherOrScatter(4, kv, cluster.intraNode);
        QVERIFY2(near(collectiveSeconds(layer, CollectiveKind::AllGather), 4 * pass),
                 qPrintable(QString::number(collectiveSeconds(layer, CollectiveKind::AllGather))));
        QVERIFY(near(collectiveSeconds(layer, CollectiveKind::ReduceScatter), 2 * pass));
        // Nothing else moves inside the layer: every tensor stays sequence-sharded.
        QCOMPARE(collectiveSeconds(layer, CollectiveKind::AllToAll), 0.0);
        // Bytes reaching one rank per layer forward: (cp - 1)/cp of K and V.
        QCOMPARE((pass - 3 * cluster.intraNode.latencySeconds) * cluster.intraNode.bytesPerSecond, 0.75 * kv);
        // The evaluation lists the ring's transfers (what the inspector shows): per layer
        // forward keys, backward keys and their gradients, for K and for V, over cp.
        std::map<ParallelTransfer::Purpose, double> calls;
        for (const ParallelTransfer& t : e.parallelTransfers) {
            QCOMPARE(t.axis, std::size_t{1});
            QVERIFY(near(t.bytes, kv));
            QCOMPARE(t.exposedShare, 1.0);  // no overlap in this workload
            calls[t.purpose] += t.times;
        }
        const auto layers = static_cast<double>(m.families.families.front().multiplicity());
        QVERIFY(near(calls[ParallelTransfer::Purpose::RingForward], 2 * layers));
        QVERIFY(near(calls[ParallelTransfer::Purpose::RingBackward], 2 * layers));
        QVERIFY(near(calls[ParallelTransfer::Purpose::RingGradients], 2 * layers));

        QCOMPARE(contextParallelDegree(ring, m.coarse), 4);
        QCOMPARE(contextParallelVariant(ring, m.coarse, 0), ContextParallelVariant::None);
        QCOMPARE(contextParallelVariant(ring, m.coarse, 1), ContextParallelVariant::Ring);
    }

    void ringAttentionHidesUnderTheChunksAttention()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x2");
        // Across the two nodes: one GPU per node on the cp axis, inter-node links.
        const DeviceMesh mesh({{"tp", 8}, {"cp", 2}}, cluster);
        auto ringSeconds = [&](std::int64_t sequence, bool overlap) {
            Workload w = workload(1, sequence);
            w.overlap = overlap;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            Plan plan = makeExpertPlan(ExpertPlanKind::RingAttention, m.coarse, mesh.axes());
            for (NodeStrategy& s : plan.strategies)
                s.axes[0] = AxisSplit::None;
            const CostBreakdown layer = instanceCost(m, costs.evaluate(plan), 1);
            return collectiveSeconds(layer, CollectiveKind::AllGather) +
                   collectiveSeconds(layer, CollectiveKind::ReduceScatter);
        };
        // Attention's work grows with s^2 and the ring's bytes with s: at 64k tokens the
        // chunk's attention hides the whole exchange (what is left is the attention slowed
        // beside it, Overlap.h), at 256 tokens it cannot.
        QVERIFY(ringSeconds(65536, false) > 0);
        QVERIFY(near(ringSeconds(65536, true), ringSeconds(65536, false) * 0.189 / 1.189));
        QVERIFY(ringSeconds(256, true) > 0);
        QVERIFY(ringSeconds(256, true) < ringSeconds(256, false));
    }

    void ulyssesSwapsSequenceAndHeadsWithFourAllToAllsEachWay()
    {
        // GPT-2 small's width (h = 768, 12 heads), no grouped-query attention.
        const FoldedModel m = foldSynthPreset("gpt2-small", 3);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"cp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(2, 1024));
        const Plan ulysses = makeExpertPlan(ExpertPlanKind::Ulysses, m.coarse, mesh.axes());
        const PlanEvaluation e = costs.evaluate(ulysses);
        const CostBreakdown layer = instanceCost(m, e, 1);
        // q, k and v to heads before attention, the output back to the sequence after:
        // each an all-to-all of the rank's b*s*h/cp bf16 shard, as much again backward.
        const double bsh = 1.0 * 1024 * 768 * 2;  // one sequence per data-parallel rank
        const double expected = 8 * ringGatherOrScatter(4, bsh / 4, cluster.intraNode);
        QVERIFY2(near(collectiveSeconds(layer, CollectiveKind::AllToAll), expected),
                 qPrintable(QString::number(collectiveSeconds(layer, CollectiveKind::AllToAll)) + QStringLiteral(" vs ") +
                            QString::number(expected)));
        QCOMPARE(collectiveSeconds(layer, CollectiveKind::AllGather), 0.0);
        // The evaluation lists them (what the inspector shows): 4 forward and 4 backward
        // all-to-alls of bsh / 4 per layer, nothing else.
        std::map<ParallelTransfer::Purpose, double> calls;
        for (const ParallelTransfer& t : e.parallelTransfers) {
            QCOMPARE(t.kind, CollectiveKind::AllToAll);
            QCOMPARE(t.axis, std::size_t{1});
            QVERIFY(near(t.bytes, bsh / 4));
            calls[t.purpose] += t.times;
        }
        QCOMPARE(calls.size(), std::size_t{2});
        QVERIFY(near(calls[ParallelTransfer::Purpose::UlyssesForward], 4 * 3.0));  // 3 layers
        QVERIFY(near(calls[ParallelTransfer::Purpose::UlyssesBackward], 4 * 3.0));
        QCOMPARE(contextParallelDegree(ulysses, m.coarse), 4);
        QCOMPARE(contextParallelVariant(ulysses, m.coarse, 1), ContextParallelVariant::Ulysses);
    }

    // Grouped-query attention (Llama-2 70B: 64 query heads of 128, 8 key heads): Ulysses
    // swaps k and v before their repeat, an eighth of q's bytes each.
    void ulyssesSwapsKeysAndValuesBeforeTheirRepeat()
    {
        const FoldedModel m = foldSynthPreset("llama2-70b", 2);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"cp", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(1, 2048));
        const Plan ulysses = makeExpertPlan(ExpertPlanKind::Ulysses, m.coarse, mesh.axes());
        const double measured = collectiveSeconds(instanceCost(m, costs.evaluate(ulysses), 1), CollectiveKind::AllToAll);
        // q and the output are b*s*8192 bf16, k and v b*s*1024 before the repeat; each an
        // all-to-all of the rank's 1/cp shard, forward and again backward.
        const double q = 1.0 * 2048 * 8192 * 2;
        const double kv = q / 8;
        const double expected = 2 * (2 * ringGatherOrScatter(8, q / 8, cluster.intraNode) +
                                     2 * ringGatherOrScatter(8, kv / 8, cluster.intraNode));
        QVERIFY2(near(measured, expected),
                 qPrintable(QString::number(measured) + QStringLiteral(" vs ") + QString::number(expected)));
    }

    void contextParallelismDividesActivationsByCp()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"cp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(2, 4096));
        const Plan ring = makeExpertPlan(ExpertPlanKind::RingAttention, m.coarse, mesh.axes());
        Plan replicated = ring;
        for (NodeStrategy& s : replicated.strategies)
            s.axes[1] = AxisSplit::None;
        const PlanEvaluation whole = costs.evaluate(replicated);
        const PlanEvaluation quarter = costs.evaluate(ring);
        QVERIFY(near(quarter.total.memory.activations, whole.total.memory.activations / 4));
        // Weights stay whole on every rank, as under data parallelism.
        QVERIFY(near(quarter.total.memory.parameters, whole.total.memory.parameters));
        QCOMPARE(contextParallelDegree(makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes()), m.coarse), 1);
    }
};

QTEST_GUILESS_MAIN(ContextParallelTest)
#include "ContextParallelTest.moc"
