// Plan diffs: which coarse nodes changed strategy between two plans of one model, and
// by how much the cost summaries differ.
#include "base/Error.h"
#include "fold/CoarsenPass.h"
#include "fold/PrunePass.h"
#include "plan/PlanDiff.h"
#include "onnx/OnnxImporter.h"
#include "plan/ExpertPlans.h"

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
