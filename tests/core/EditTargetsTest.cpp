// Every edit target the GUI offers (editTargets) is a pin the search understands: pinned
// to the strategy a Megatron plan gives its first node, the search's problem builds, and
// the pin reaches exactly the target's nodes.
#include "FoldedTestModel.h"
#include "cost/CostModel.h"
#include "plan/EditTargets.h"
#include "plan/ExpertPlans.h"
#include "search/PlanSearch.h"

#include <QTest>

using namespace tapestry;
using namespace tapestry::test;

class EditTargetsTest : public QObject {
    Q_OBJECT

private:
    static void everyTargetResolvesAsAPin(const FoldedModel& m, std::size_t& scopeNamed)
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const std::vector<MeshAxis> axes{{"dp", 2}, {"tp", 4}};
        const DeviceMesh mesh(axes, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 512));
        const Plan megatron = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, axes);
        const std::vector<EditTarget> targets = editTargets(m.coarse, m.families);
        QVERIFY(!targets.empty());
        scopeNamed = 0;  // "model/layers.##2": a node named by its block's scope
        for (const EditTarget& target : targets) {
            SearchOptions options;
            options.pins.push_back({target.name, megatron.strategy(target.nodes.front())});
            try {
                (void)encodeSearchProblem(costs, m.coarse, m.families, options);
            } catch (const std::exception& error) {
                QFAIL(qPrintable(QStringLiteral("target %1: %2").arg(QString::fromStdString(target.name),
                                                                     QString::fromLocal8Bit(error.what()))));
            }
            for (const Family& family : m.families.families)
                scopeNamed += target.name.starts_with(family.name + "#") ? 1 : 0;
        }
        qInfo("%zu targets, %zu named by their block's scope alone", targets.size(), scopeNamed);
    }

private slots:
    // Llama and GPT-2 blocks hold a node named by the block's scope alone ("model/layers.##2").
    void llamaTargetsResolve()
    {
        std::size_t scopeNamed = 0;
        everyTargetResolvesAsAPin(foldTestFile("llama.ts.stripped.onnx"), scopeNamed);
        QVERIFY(scopeNamed > 0);
    }
    void gpt2TargetsResolve()
    {
        std::size_t scopeNamed = 0;
        everyTargetResolvesAsAPin(foldTestFile("gpt2.ts.stripped.onnx"), scopeNamed);
        QVERIFY(scopeNamed > 0);
    }
    void bertTargetsResolve()
    {
        std::size_t scopeNamed = 0;
        everyTargetResolvesAsAPin(foldTestFile("bert.dynamo.stripped.onnx"), scopeNamed);
    }
};

QTEST_MAIN(EditTargetsTest)
#include "EditTargetsTest.moc"
