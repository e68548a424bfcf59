// Expert parallelism against closed forms (training.md, "Expert parallelism"): an expert
// computes only its routed share of the tokens; spread over an axis of ep ranks, the
// experts' weights and optimizer states divide by ep and each MoE layer pays a dispatch
// and a combine all-to-all of tokens x hidden x top-k x capacity factor bytes per rank,
// forward and backward, and sends each routed copy's weight (tokens x top-k x capacity
// factor values) to the expert that applies it, forward, and its gradient back.
#include "base/Error.h"
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "search/PlanSearch.h"

#include <QTest>

#include <algorithm>

using namespace tapestry;
using namespace tapestry::test;

namespace {

double allToAll(int n, double bytes, const LinkSpec& link)
{
    return static_cast<double>(n - 1) / n * bytes / link.bytesPerSecond + (n - 1) * link.latencySeconds;
}

// Mixtral 8x7B's layer (8 experts, top-2, hidden 4096, FFN 14336), two layers deep.
FoldedModel mixtralLayers()
{
    return foldSynthPreset("mixtral-8x7b", 2);
}

// Data parallel on every axis, the experts (linear layers and their activation) spread over `axis`.
Plan expertParallelPlan(const CostModel& costs, const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh,
                        std::size_t axis)
{
    Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, coarse, mesh);
    for (const CoarseNode& node : coarse.nodes) {
        if (costs.facts(node.id).experts > 0)
            plan.strategies[node.id.index()].axes[axis] = AxisSplit::Expert;
    }
    plan.name = "ep";
    return plan;
}

}  // namespace

class ExpertParallelTest : public QObject {
    Q_OBJECT

private slots:
    void theRouterNamesTheExpertsAndTheirShare()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"ep", 8}}, cluster);
        Workload w = workload(8, 1024);
        w.capacityFactor = 1.25;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
        int expertLinears = 0;
        for (const CoarseNode& node : m.coarse.nodes) {
            const auto& facts = costs.facts(node.id);
            if (facts.experts == 0)
                continue;
            QCOMPARE(facts.experts, 8);
            QCOMPARE(facts.routedShare, 2 * 1.25 / 8);  // top-2 of 8 at capacity 1.25
            expertLinears += node.kind == CoarseNodeKind::Linear ? 1 : 0;
        }
        QCOMPARE(expertLinears, 2 * 8 * 3);  // w1, w2, w3 of 8 experts in 2 layers
        // The router's gate is no expert and cannot take the split.
        for (const CoarseNode& node : m.coarse.nodes) {
            if (node.name == "model/layers.0/block_sparse_moe/gate/MatMul")
                QVERIFY(!costs.accepts(node.id, NodeStrategy{{AxisSplit::Expert}}));
        }
        Plan wrong = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        for (NodeStrategy& s : wrong.strategies)
            s.axes[0] = AxisSplit::Expert;
        QVERIFY_THROWS_EXCEPTION(tapestry::Error, (void)costs.evaluate(wrong));
    }

    // Each rank of an expert split keeps whole experts: 8 experts spread over 2, 4 or 8
    // ranks, never 16 or 32 (Megatron-LM refuses --expert-model-parallel-size 32 for 8).
    void anExpertSplitKeepsWholeExpertsPerRank()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x4");
        const DeviceMesh mesh({{"a0", 4}, {"a1", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(32, 1024));
        for (const CoarseNode& node : m.coarse.nodes) {
            if (costs.facts(node.id).experts == 0)
                continue;
            QVERIFY(costs.accepts(node.id, NodeStrategy{{AxisSplit::Batch, AxisSplit::Expert}}));
            QVERIFY(costs.accepts(node.id, NodeStrategy{{AxisSplit::Expert, AxisSplit::Batch}}));
            QVERIFY(!costs.accepts(node.id, NodeStrategy{{AxisSplit::Expert, AxisSplit::Expert}}));
        }
        Plan both = expertParallelPlan(costs, m.coarse, mesh.axes(), 1);
        for (const CoarseNode& node : m.coarse.nodes) {
            if (costs.facts(node.id).experts > 0)
                both.strategies[node.id.index()].axes[0] = AxisSplit::Expert;
        }
        QVERIFY_THROWS_EXCEPTION(tapestry::Error, (void)costs.evaluate(both));
    }

    // An expert whose layers sit on different ranks pays for moving its tokens between
    // them: spreading one of its three linear layers over a second axis adds that axis's
    // all-to-alls (it never saves them).
    void everyExpertAxisPaysItsAllToAll()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"a0", 2}, {"a1", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(32, 1024));
        const Plan ep = expertParallelPlan(costs, m.coarse, mesh.axes(), 1);
        Plan mixed = ep;
        for (const CoarseNode& node : m.coarse.nodes) {
            if (costs.facts(node.id).experts > 0 && node.name.find("/w3/") != std::string::npos)
                mixed.strategies[node.id.index()].axes[0] = AxisSplit::Expert;
        }
        auto allToAllOn = [](const PlanEvaluation& e, std::size_t axis) {
            double seconds = 0;
            for (const ParallelTransfer& t : e.parallelTransfers)
                seconds += t.kind == CollectiveKind::AllToAll && t.axis == axis ? t.exposedSeconds() : 0.0;
            return seconds;
        };
        const PlanEvaluation a = costs.evaluate(ep);
        const PlanEvaluation b = costs.evaluate(mixed);
        QCOMPARE(allToAllOn(a, 0), 0.0);
        QVERIFY(allToAllOn(b, 0) > 0);
        // On the step's exposed communication, not its step: w3's experts split eight ways
        // compute 1.23 ms less per rank than four ways, a little more than the all-to-alls
        // on a0 add (60.29 against 60.41 ms a step), and sync fewer gradients.
        QVERIFY(b.total.time.exposedCommunicationSeconds() > a.total.time.exposedCommunicationSeconds());
    }

    void dispatchAndCombineAreTheClosedFormAllToAlls()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x4");
        // Experts over the 8 GPUs of a node, data parallel over the 4 nodes.
        const DeviceMesh mesh({{"dp", 4}, {"ep", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(32, 2048));
        const Plan ep = expertParallelPlan(costs, m.coarse, mesh.axes(), 1);
        const PlanEvaluation e = costs.evaluate(ep);
        const CostBreakdown layer = instanceCost(m, e, 1);
        // A rank holds 32 / (4 x 8) = 1 sequence of 2048 tokens; each sends top-2 copies
        // of its 4096-wide bf16 hidden state (capacity factor 1): dispatch and combine,
        // forward and backward; and one bf16 routing weight per copy, forward and backward.
        const double perRank = 1.0 * 2048 * 4096 * 2 * 2;
        const double weights = 1.0 * 2048 * 2 * 2;
        const double expected =
            4 * allToAll(8, perRank, cluster.intraNode) + 2 * allToAll(8, weights, cluster.intraNode);
        const double measured = layer.time.byCollective[static_cast<std::size_t>(CollectiveKind::AllToAll)];
        QVERIFY2(near(measured, expected),
                 qPrintable(QString::number(measured) + QStringLiteral(" vs ") + QString::number(expected)));
        // The evaluation lists them (what the inspector shows): a layer makes 2 dispatches
        // and 2 combines of perRank bytes per step (forward, backward) and sends the
        // weights twice, each expert's eighth of one call.
        double tokenCalls = 0;
        double weightCalls = 0;
        double listedSeconds = 0;
        for (const ParallelTransfer& t : e.parallelTransfers) {
            QCOMPARE(t.kind, CollectiveKind::AllToAll);
            QVERIFY(near(t.bytes, perRank) || near(t.bytes, weights));
            QCOMPARE(t.exposedShare, 1.0);
            (near(t.bytes, perRank) ? tokenCalls : weightCalls) += t.times;
            listedSeconds += t.exposedSeconds();
        }
        QVERIFY(near(tokenCalls, 2 * 4.0));  // two layers
        QVERIFY(near(weightCalls, 2 * 2.0));
        QVERIFY(near(listedSeconds, e.total.time.byCollective[static_cast<std::size_t>(CollectiveKind::AllToAll)]));
        QCOMPARE(expertParallelDegree(ep), 8);
        QCOMPARE(expertParallelDegree(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes())), 1);

        // The experts' weights and optimizer states divide by ep; with data parallelism
        // they stay whole on every rank. Expert parameters: 2 layers x 8 x 3 x 4096 x 14336.
        const PlanEvaluation dp = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
        const double expertParameters = 2.0 * 8 * 3 * 4096 * 14336;
        QVERIFY(near(dp.total.memory.parameters - e.total.memory.parameters, expertParameters * 2 * 7 / 8));
        QVERIFY(near(dp.total.memory.optimizerStates - e.total.memory.optimizerStates, expertParameters * 12 * 7 / 8));
        // Both compute the same routed tokens.
        QVERIFY(near(dp.total.time.computeSeconds - dp.total.time.optimizerSeconds,
                     e.total.time.computeSeconds - e.total.time.optimizerSeconds, 1e-6));
    }

    void allToAllBytesScaleWithTheCapacityFactor()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x4");
        const DeviceMesh mesh({{"dp", 4}, {"ep", 8}}, cluster);
        for (const double capacity : {0.5, 1.25, 2.0}) {
            Workload w = workload(32, 2048);
            w.capacityFactor = capacity;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const PlanEvaluation e = costs.evaluate(expertParallelPlan(costs, m.coarse, mesh.axes(), 1));
            // One sequence of 2048 tokens per rank, top-2 copies of the bf16 4096-wide hidden
            // state, times the capacity factor; dispatch and combine, forward and backward;
            // the copies' weights forward and backward.
            const double perRank = 1.0 * 2048 * 4096 * 2 * 2 * capacity;
            const double expected = 4 * allToAll(8, perRank, cluster.intraNode) +
                                    2 * allToAll(8, perRank / 4096, cluster.intraNode);
            const double measured =
                instanceCost(m, e, 1).time.byCollective[static_cast<std::size_t>(CollectiveKind::AllToAll)];
            QVERIFY2(near(measured, expected), qPrintable(QStringLiteral("capacity %1: %2 vs %3")
                                                              .arg(capacity)
                                                              .arg(measured)
                                                              .arg(expected)));
        }
    }

    void anExpertComputesItsRoutedShareOnly()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        auto expertCompute = [&](double capacity) {
            Workload w = workload(8, 1024);
            w.capacityFactor = capacity;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const PlanEvaluation e =
                costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
            double seconds = 0;
            for (const CoarseNode& node : m.coarse.nodes) {
                if (costs.facts(node.id).experts > 0)
                    seconds += e.perNode[node.id.index()].time.computeSeconds -
                               e.perNode[node.id.index()].time.optimizerSeconds;
            }
            return seconds;
        };
        // Top-2 of 8: a quarter of the dense graph's expert work; capacity 4 is all of it.
        QVERIFY(near(expertCompute(1.0) * 4, expertCompute(4.0)));
    }

    // A top-k layer's FLOPs and bytes in closed form. Each expert weights the copies routed
    // to it (its routing column enters the expert) and the combine outside the experts
    // sums what they made: top-k x capacity factor copies of a token's hidden state, not
    // one per expert.
    void aTopKLayerComputesAndCombinesItsRoutedCopies()
    {
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        for (const double capacity : {1.0, 1.25}) {
            Workload w = workload(8, 1024);
            w.capacityFactor = capacity;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const double tokens = 8.0 * 1024;  // the dense graph's tokens
            const double hidden = 4096;
            const double ffn = 14336;
            const double copies = 2 * capacity;  // top-2
            double expertFlops = 0;
            double weighting = 0;
            for (const CoarseNode& node : m.coarse.nodes) {
                const auto& facts = costs.facts(node.id);
                if (facts.experts == 0 || node.name.rfind("model/layers.0/", 0) != 0)
                    continue;
                expertFlops += facts.flops * facts.routedShare;
                const bool weighs = std::any_of(node.ops.begin(), node.ops.end(), [&](OpId op) {
                    for (const TensorId input : m.graph().op(op).inputs) {
                        const OpId producer = input.isValid() ? m.graph().tensor(input).producer : OpId{};
                        if (producer.isValid() && m.graph().op(producer).type == "Split")
                            return true;
                    }
                    return false;
                });
                weighting += weighs ? facts.memoryBoundBytes * facts.routedShare : 0.0;
            }
            // w1, w3 (hidden -> ffn) and w2 (ffn -> hidden) on every routed copy, forward.
            QVERIFY(near(expertFlops, copies * tokens * 3 * 2 * hidden * ffn));
            // Each copy's weighting reads the expert's output and its weight, writes the product.
            QVERIFY(near(weighting, copies * tokens * (2 * hidden + 1) * 2));
            // The combine (one Sum outside the experts) reads the copies and writes a token's
            // hidden state.
            const CoarseNode* combine = nullptr;
            for (const CoarseNode& node : m.coarse.nodes)
                combine = node.name == "model/layers.0/block_sparse_moe" ? &node : combine;
            QVERIFY(combine);
            QCOMPARE(combine->ops.size(), std::size_t{1});
            QCOMPARE(m.graph().op(combine->ops.front()).type, std::string("Sum"));
            QVERIFY(near(costs.facts(combine->id).memoryBoundBytes, (copies + 1) * tokens * hidden * 2));
        }
    }

    void searchSpreadsExpertsWhenTheyDoNotFitOtherwise()
    {
        // Mixtral's 2 layers (6 B parameters with the embeddings) on one DGX-H100 under a
        // 40 GB limit: data parallelism keeps 16 bytes per parameter; the search has to
        // shard the experts' weights, and an all-to-all inside a node is cheap.
        const FoldedModel m = mixtralLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"ep", 8}}, cluster);
        Workload w = workload(8, 1024);
        w.zeroStage = 1;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
        SearchOptions options = fastestPlanOnly();
        options.memoryLimitBytes = 40e9;
        const SearchResult result = searchPlan(costs, m.coarse, m.families, options);
        QVERIFY(result.best);
        QVERIFY(result.fitsInMemory);
        QCOMPARE(expertParallelDegree(result.best->plan), 8);
    }
};

QTEST_GUILESS_MAIN(ExpertParallelTest)
#include "ExpertParallelTest.moc"
