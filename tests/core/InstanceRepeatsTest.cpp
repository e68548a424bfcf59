// A cost model binds the shapes of a deep model's repeated blocks once
// (fold/InstanceRepeats.h): a layer whose neighbours sit where the layer before has
// them takes its bound facts from there, moved onto its own tensors; the first layers,
// the last and any layer unlike its neighbours are bound op by op.
#include "FoldedTestModel.h"
#include "base/Error.h"
#include "cost/CostModel.h"
#include "fold/InstanceRepeats.h"
#include "graph/Graph.h"

#include <QTest>

#include <string>

using namespace tapestry;
using namespace tapestry::test;

namespace {

FoldedModel gptModel(std::int64_t layers)
{
    ModelSpec spec = findSynthPreset("gpt2-small")->spec;
    spec.layers = layers;
    spec.hidden = 512;
    spec.heads = 8;
    spec.kvHeads = 8;
    spec.ffn = 1024;
    spec.vocab = 32000;
    return foldModel(synthesizeModel(spec, "gpt2-small"));
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
        const FoldedModel m = gptModel(6);
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        QCOMPARE(repeats.instances.size(), std::size_t{6});
        std::string pattern;
        for (std::size_t i = 0; i < repeats.instances.size(); ++i) {
            const BlockInstance& instance = *repeats.instances[i];
            const bool repeating = repeats.nodeBefore[instance.nodes.front().index()].isValid();
            pattern += repeating ? 'r' : '-';
            for (std::size_t n = 0; n < instance.nodes.size(); ++n) {
                const CoarseNodeId before = repeats.nodeBefore[instance.nodes[n].index()];
                QCOMPARE(before.isValid(), repeating);
                if (repeating)
                    QCOMPARE(before, repeats.instances[i - 1]->nodes[n]);
            }
        }
        QCOMPARE(pattern, std::string("---rr-"));
    }

    // next() moves a tensor of layer 3 to the same output of the same op of layer 4; a
    // tensor of the last layer has no next layer and is refused, not read past the end.
    void nextMovesOneLayerOnAndRefusesTheLast()
    {
        const FoldedModel m = gptModel(6);
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        QCOMPARE(repeats.instances.size(), std::size_t{6});
        const auto firstOutput = [&](std::size_t instance) {
            const CoarseNode& node = m.coarse.node(repeats.instances[instance]->nodes.front());
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
        const FoldedModel m = gptModel(6);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 256));
        const InstanceRepeats repeats = findInstanceRepeats(m.graph(), m.coarse, m.families);
        const BlockInstance& bound = *repeats.instances[2];
        const BlockInstance& repeated = *repeats.instances[4];
        QVERIFY(repeats.nodeBefore[repeated.nodes.front().index()].isValid());
        QVERIFY(!repeats.nodeBefore[bound.nodes.front().index()].isValid());
        int saved = 0;
        for (std::size_t n = 0; n < bound.nodes.size(); ++n) {
            const CostModel::NodeFacts& a = costs.facts(bound.nodes[n]);
            const CostModel::NodeFacts& b = costs.facts(repeated.nodes[n]);
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
};

QTEST_GUILESS_MAIN(InstanceRepeatsTest)
#include "InstanceRepeatsTest.moc"
