// Plan diffs: which coarse nodes changed strategy between two plans of one model, how
// they group by block position, and by how much the cost summaries differ.
#include "base/Error.h"
#include "fold/CoarsenPass.h"
#include "fold/PrunePass.h"
#include "plan/PlanDiff.h"
#include "onnx/OnnxImporter.h"
#include "plan/EditTargets.h"
#include "plan/ExpertPlans.h"

#include "FoldedTestModel.h"

#include <QTest>

using namespace tapestry;

class HistoryPlanDiffTest : public QObject {
    Q_OBJECT

private slots:
    void changedNodesAndCostDelta()
    {
        const Graph graph = importOnnxModel(std::string(TAPESTRY_TEST_DATA_DIR) + "/llama.ts.stripped.onnx");
        const CoarseGraph coarse = CoarsenPass{}.apply(graph);
        PlanDocument a;
        a.plan = makeExpertPlan(ExpertPlanKind::Megatron, coarse, {{"dp", 2}, {"tp", 4}});
        a.cost = PlanCostSummary{0.25, 0.15, 0.10, 30e9, 80e9};
        PlanDocument b = a;
        b.cost = PlanCostSummary{0.20, 0.15, 0.05, 32e9, 80e9};

        QVERIFY(diffPlans(a, a, coarse).changes.empty());

        // Replicate one anchor on the tp axis.
        const CoarseNode* anchor = nullptr;
        for (const CoarseNode& node : coarse.nodes) {
            if (isAnchorKind(node.kind) && a.plan.strategy(node.id).axes[1] != AxisSplit::None) {
                anchor = &node;
                break;
            }
        }
        QVERIFY(anchor);
        b.plan.strategies[anchor->id.index()].axes[1] = AxisSplit::None;

        const PlanDiff diff = diffPlans(a, b, coarse);
        QVERIFY(!diff.meshDiffers);
        QCOMPARE(diff.changes.size(), std::size_t(1));
        QCOMPARE(diff.changes[0].node, anchor->id);
        QCOMPARE(diff.changes[0].name, anchor->name);
        QCOMPARE(diff.changes[0].before, a.plan.strategy(anchor->id));
        QCOMPARE(diff.changes[0].after.axes[1], AxisSplit::None);
        QVERIFY(diff.costDelta);
        QCOMPARE(diff.costDelta->stepSeconds, 0.20 - 0.25);
        QCOMPARE(diff.costDelta->computeSeconds, 0.0);
        QCOMPARE(diff.costDelta->communicationSeconds, 0.05 - 0.10);
        QCOMPARE(diff.costDelta->memoryBytes, 2e9);

        b.cost.reset();
        QVERIFY(!diffPlans(a, b, coarse).costDelta);  // no summary, no delta
    }

    // One edit of a repeated block's position (replicated on tp in every layer) is one
    // group named after the position, with one node per layer; the same position changed
    // two ways in two layers is two groups, each named after its node.
    void oneEditOfARepeatedBlockIsOneGroup()
    {
        const FoldedModel m = test::foldTestFile("llama.ts.stripped.onnx");
        PlanDocument a;
        a.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"dp", 2}, {"tp", 4}});
        PlanDocument b = a;
        std::vector<const EditTarget*> split;  // block positions Megatron-LM splits on tp
        const std::vector<EditTarget> targets = editTargets(m.coarse, m.families);
        for (const EditTarget& target : targets)
            if (target.nodes.size() > 1 && isAnchorKind(target.kind) &&
                a.plan.strategy(target.nodes.front()).axes[1] != AxisSplit::None)
                split.push_back(&target);
        QVERIFY(split.size() >= 2);
        const EditTarget& everyLayer = *split[0];
        const EditTarget& twoWays = *split[1];
        for (const CoarseNodeId node : everyLayer.nodes)
            b.plan.strategies[node.index()].axes[1] = AxisSplit::None;
        b.plan.strategies[twoWays.nodes[0].index()].axes[1] = AxisSplit::None;
        b.plan.strategies[twoWays.nodes[1].index()].axes[1] = AxisSplit::Batch;

        const PlanDiff diff = diffPlans(a, b, m.coarse);
        QCOMPARE(diff.changes.size(), everyLayer.nodes.size() + 2);
        const std::vector<StrategyChangeGroup> groups = groupedChanges(diff, m.coarse, m.families);
        QCOMPARE(groups.size(), std::size_t{3});
        const auto named = [&](const std::string& name) {
            return std::find_if(groups.begin(), groups.end(), [&](const StrategyChangeGroup& g) { return g.name == name; });
        };
        const auto block = named(everyLayer.name);
        QVERIFY2(block != groups.end(), everyLayer.name.c_str());
        QVERIFY(everyLayer.name.find('#') != std::string::npos);
        QCOMPARE(block->nodes, everyLayer.nodes);
        QCOMPARE(block->after.axes[1], AxisSplit::None);
        for (std::size_t layer = 0; layer < 2; ++layer) {
            const auto single = named(m.coarse.node(twoWays.nodes[layer]).name);
            QVERIFY(single != groups.end());
            QCOMPARE(single->nodes, std::vector<CoarseNodeId>{twoWays.nodes[layer]});
        }
    }

    void planForAnotherGraphIsRejected()
    {
        const Graph graph = importOnnxModel(std::string(TAPESTRY_TEST_DATA_DIR) + "/llama.ts.stripped.onnx");
        const CoarseGraph coarse = CoarsenPass{}.apply(graph);
        PlanDocument a;
        a.plan = makeExpertPlan(ExpertPlanKind::DataParallel, coarse, {{"d", 8}});
        PlanDocument b = a;
        b.plan.strategies.pop_back();
        try {
            (void)diffPlans(a, b, coarse);
            QFAIL("expected InvalidPlan");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidPlan);
        }
    }
};

QTEST_APPLESS_MAIN(HistoryPlanDiffTest)
#include "HistoryPlanDiffTest.moc"
