// A cost model binds the shapes of a deep model's repeated blocks once
// (fold/InstanceRepeats.h): a layer whose neighbours sit where the layer before has
// them takes its bound facts from there, moved onto its own tensors; the first layers,
// the last and any layer unlike its neighbours are bound op by op. The fold finds the
// repeats once per model (FoldedModel::foldFacts), and a cost model bound from them prices
// every plan as one that binds every layer op by op.
#include "FoldedTestModel.h"
#include "base/Error.h"
#include "cost/CostModel.h"
#include "fold/FoldFacts.h"
#include "fold/GradientCarriers.h"
#include "fold/InstanceRepeats.h"
#include "graph/Graph.h"
#include "plan/ExpertPlans.h"

#include <QTest>

#include <string>

using namespace tapestry;
using namespace tapestry::test;

namespace {

FoldedModel smallPreset(const char* preset, std::int64_t layers)
{
    ModelSpec spec = findSynthPreset(preset)->spec;
    spec.layers = layers;
    spec.hidden = 512;
    spec.heads = 8;
    spec.kvHeads = std::string(preset) == "llama3-8b" ? 2 : 8;
    spec.ffn = 1024;
    spec.vocab = 32000;
    return foldModel(synthesizeModel(spec, preset));
}

// Repeats that copy nothing: a cost model bound with them binds every layer op by op.
InstanceRepeats noRepeats(const FoldedModel& m)
{
    InstanceRepeats none;
    none.opBefore.assign(m.graph().opCount(), OpId{});
    none.nodeBefore.assign(m.coarse.nodes.size(), CoarseNodeId{});
    return none;
}

// The layers whose bound facts are copied from the layer before.
int repeatingLayers(const InstanceRepeats& repeats)
{
    int count = 0;
    for (const std::vector<CoarseNodeId>& instance : repeats.instances)
        count += repeats.nodeBefore[instance.front().index()].isValid() ? 1 : 0;
    return count;
}

// Whether `tensor` is made by an op of `instance` (or outside every block: a mask).
bool madeIn(const FoldedModel& m, const InstanceRepeats& repeats, TensorId tensor, std::int32_t instance)
{
    const OpId maker = m.graph().tensor(tensor).producer;
    return !maker.isValid() || repeats.places[maker.index()].instance == instance ||
           repeats.places[maker.index()].instance == instance - 1 || repeats.places[maker.index()].instance < 0;
}

}  // namespace

class InstanceRepeatsTest : public QObject {
    Q_OBJECT

private slots:
    // Six layers: the first reads the embedding, the second the first (which the first
    // does not), the last feeds the head; the third repeats the second, but the second
    // does not repeat the first, so a tensor all layers read may be kept first by
    // either. Layers 4 and 5 (indices 3 and 4) repeat.
    void theMiddleLayersRepeatTheOneBefore()
    {
        const FoldedModel m = smallPreset("gpt2-small", 6);
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        QCOMPARE(repeats.instances.size(), std::size_t{6});
        std::string pattern;
        for (std::size_t i = 0; i < repeats.instances.size(); ++i) {
            const std::vector<CoarseNodeId>& instance = repeats.instances[i];
            const bool repeating = repeats.nodeBefore[instance.front().index()].isValid();
            pattern += repeating ? 'r' : '-';
            for (std::size_t n = 0; n < instance.size(); ++n) {
                const CoarseNodeId before = repeats.nodeBefore[instance[n].index()];
                QCOMPARE(before.isValid(), repeating);
                if (repeating)
                    QCOMPARE(before, repeats.instances[i - 1][n]);
            }
        }
        QCOMPARE(pattern, std::string("---rr-"));
    }

    // next() moves a tensor of layer 3 to the same output of the same op of layer 4; a
    // tensor of the last layer has no next layer and is refused, not read past the end.
    void nextMovesOneLayerOnAndRefusesTheLast()
    {
        const FoldedModel m = smallPreset("gpt2-small", 6);
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        QCOMPARE(repeats.instances.size(), std::size_t{6});
        const auto firstOutput = [&](std::size_t instance) {
            const CoarseNode& node = m.coarse.node(repeats.instances[instance].front());
            return m.graph().op(node.ops.front()).outputs.front();
        };
        QCOMPARE(repeats.next(m.graph(), m.coarse, firstOutput(2)), firstOutput(3));
        QCOMPARE(repeats.next(m.graph(), m.coarse, firstOutput(4)), firstOutput(5));
        QVERIFY_THROWS_EXCEPTION(Error, (void)repeats.next(m.graph(), m.coarse, firstOutput(5)));
    }

    // The facts of the repeating layer 5 equal those of layer 3, bound op by op, and its
    // saved activations are its own tensors (or the layer before's output).
    void aRepeatingLayerHasTheFactsOfOneBoundOpByOp()
    {
        const FoldedModel m = smallPreset("gpt2-small", 6);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 256));
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        const std::vector<CoarseNodeId>& bound = repeats.instances[2];
        const std::vector<CoarseNodeId>& repeated = repeats.instances[4];
        QVERIFY(repeats.nodeBefore[repeated.front().index()].isValid());
        QVERIFY(!repeats.nodeBefore[bound.front().index()].isValid());
        int saved = 0;
        for (std::size_t n = 0; n < bound.size(); ++n) {
            const CostModel::NodeFacts& a = costs.facts(bound[n]);
            const CostModel::NodeFacts& b = costs.facts(repeated[n]);
            QCOMPARE(b.flops, a.flops);
            QCOMPARE(b.memoryBoundBytes, a.memoryBoundBytes);
            QCOMPARE(b.parameterElements, a.parameterElements);
            QCOMPARE(b.transientBytes, a.transientBytes);
            QCOMPARE(b.blockInputBytes, a.blockInputBytes);
            QCOMPARE(b.ringBytes, a.ringBytes);
            QCOMPARE(b.linearOrdinal, a.linearOrdinal);
            QCOMPARE(b.pastReplayStop, a.pastReplayStop);
            QCOMPARE(b.block, a.block + 2);
            QCOMPARE(b.savedActivations.size(), a.savedActivations.size());
            for (std::size_t s = 0; s < a.savedActivations.size(); ++s) {
                QCOMPARE(b.savedActivations[s].bytes, a.savedActivations[s].bytes);
                QCOMPARE(b.savedActivations[s].asOutput, a.savedActivations[s].asOutput);
                QVERIFY(madeIn(m, repeats, b.savedActivations[s].tensor, 4));
                QVERIFY(b.savedActivations[s].tensor != a.savedActivations[s].tensor);
                ++saved;
            }
        }
        QVERIFY(saved > 0);
    }

    // foldModel finds the repeats once: the same as findInstanceRepeats, 4 of 8 GPT
    // layers repeating (the pattern above, "---rrrr-"), with the gradient carriers and
    // the model's fingerprint.
    void theFoldHoldsTheModelsFacts()
    {
        const FoldedModel m = smallPreset("gpt2-small", 8);
        QVERIFY(m.foldFacts);
        const InstanceRepeats& repeats = m.foldFacts->repeats;
        const InstanceRepeats found = findInstanceRepeats(m.graph(), m.coarse, m.families);
        QCOMPARE(repeats.nodeBefore, found.nodeBefore);
        QCOMPARE(repeats.opBefore, found.opBefore);
        QCOMPARE(repeats.repeatedOps, found.repeatedOps);
        QCOMPARE(repeatingLayers(repeats), 4);
        QVERIFY(m.foldFacts->gradientCarriers == gradientCarriers(m.graph(), m.coarse));
        QCOMPARE(m.foldFacts->fingerprint, m.fingerprint);
    }

    // A cost model bound from the fold's repeats prices every expert plan, under every
    // recomputation and ZeRO 1 and 3, exactly as one bound with no repeats, which binds
    // every layer op by op: node by node (evaluate) and by classes (evaluateTotals). On a
    // GPT, a Llama (grouped-query attention, its K/V repeated before attention), a mixture
    // of experts (the routed experts' facts set after the copy) and Swin, whose family
    // holds shifted-window instances unlike the others (folded variants: never copied).
    void boundFromTheFoldsRepeatsPricesAsEveryLayerBound()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        struct Case {
            const char* name;
            FoldedModel model;
            Workload workload;
            int repeating;  // layers bound from the one before
        };
        std::vector<Case> cases;
        cases.push_back({"gpt", smallPreset("gpt2-small", 8), workload(8, 256), 4});
        cases.push_back({"llama", smallPreset("llama3-8b", 8), workload(8, 256), 4});
        cases.push_back({"mixtral", smallPreset("mixtral-8x7b", 6), workload(8, 256), 2});
        cases.push_back({"swin", foldTestFile("torch113_swin_t.stripped.onnx"), workload(8, 0), 0});
        for (const Case& c : cases) {
            const FoldedModel& m = c.model;
            QVERIFY(m.foldFacts);
            QCOMPARE(repeatingLayers(m.foldFacts->repeats), c.repeating);
            FoldedModel walking = m;  // the same model, its fold's repeats copying nothing
            FoldFacts none = *m.foldFacts;
            none.repeats = noRepeats(m);
            walking.foldFacts = std::make_shared<const FoldFacts>(std::move(none));
            int priced = 0;
            for (const Recomputation recompute : {Recomputation::None, Recomputation::Selective, Recomputation::Full})
                for (const int zeroStage : {1, 3}) {
                    Workload w = c.workload;
                    w.recompute = recompute;
                    w.zeroStage = zeroStage;
                    const CostModel copied(m, cluster, mesh, w);
                    const CostModel walked(walking, cluster, mesh, w);
                    for (const ExpertPlanKind kind :
                         {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron,
                          ExpertPlanKind::MegatronSequenceParallel, ExpertPlanKind::RingAttention}) {
                        const Plan plan = makeExpertPlan(kind, m.coarse, {{"dp", 2}, {"tp", 4}});
                        const PlanEvaluation a = copied.evaluate(plan);
                        const PlanEvaluation b = walked.evaluate(plan);
                        QVERIFY2(a.total.time.stepSeconds() == b.total.time.stepSeconds(), c.name);
                        QVERIFY2(a.total.memory.total() == b.total.memory.total(), c.name);
                        for (std::size_t n = 0; n < m.coarse.nodes.size(); ++n)
                            QVERIFY2(a.perNode[n].time.stepSeconds() == b.perNode[n].time.stepSeconds() &&
                                         a.perNode[n].memory.total() == b.perNode[n].memory.total(),
                                     (std::string(c.name) + " node " + std::to_string(n)).c_str());
                        PlanEvaluation x;
                        PlanEvaluation y;
                        copied.evaluateTotals(plan, x);
                        walked.evaluateTotals(plan, y);
                        QVERIFY2(x.total.time.stepSeconds() == y.total.time.stepSeconds(), c.name);
                        QVERIFY2(x.total.memory.total() == y.total.memory.total(), c.name);
                        ++priced;
                    }
                }
            QCOMPARE(priced, 3 * 2 * 4);
        }
    }

    // Fold facts found for another model are refused, not read out of bounds.
    void foldFactsOfAnotherModelAreRefused()
    {
        const FoldedModel shallow = smallPreset("gpt2-small", 6);
        FoldedModel deep = smallPreset("gpt2-small", 8);
        deep.foldFacts = shallow.foldFacts;
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        try {
            (void)CostModel(deep, cluster, mesh, workload(8, 256));
            QFAIL("bound from another model's fold facts");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidArgument);
            QVERIFY(error.message().find(shallow.fingerprint) != std::string::npos);
            QVERIFY(error.message().find(deep.fingerprint) != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(InstanceRepeatsTest)
#include "InstanceRepeatsTest.moc"
