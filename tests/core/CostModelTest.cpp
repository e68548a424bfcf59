// The cost model against closed forms (cost-model.md, "Invariants the tests should pin
// down"): Megatron's four all-reduces per layer, pure data parallelism's one gradient
// all-reduce, the intra/inter bandwidth ratio, sequence parallelism's exchange of
// all-reduces for all-gathers and reduce-scatters, and breakdowns that add up.
#include "base/Error.h"
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "TestInitializer.h"
#include "cost/CostModel.h"
#include "cost/KernelTime.h"
#include "graph/GraphBuilder.h"
#include "graph/ParameterCount.h"
#include "plan/ExpertPlans.h"

#include <QTest>

#include <string>
#include <tuple>
#include <vector>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// GPT-2 small's width (h = 768, 12 heads) with three layers.
FoldedModel gptLayers()
{
    return foldSynthPreset("gpt2-small", 3);
}

double ringAllReduce(int n, double bytes, const LinkSpec& link)
{
    return 2.0 * (n - 1) / n * bytes / link.bytesPerSecond + 2.0 * (n - 1) * link.latencySeconds;
}

std::size_t collective(CollectiveKind kind)
{
    return static_cast<std::size_t>(kind);
}

// Attention's core on [batch, 2 heads, seq, 4] queries projected by a 4 x 4 weight (so that
// gradients flow): QKᵀ, softmax, dropout, then x V. Its dropout names its mask output or
// leaves it unnamed, as a hand-built graph or another exporter may.
FoldedModel attentionCore(bool namesMask)
{
    GraphBuilder b;
    const Dimension seq = Dimension::symbolic("seq");
    const Dimension four = Dimension::known(4);
    const auto shape = [](Dimension third, Dimension fourth) {
        return TensorShape({Dimension::symbolic("batch"), Dimension::known(2), third, fourth});
    };
    b.addInput("x", DataType::Float32, shape(seq, four));
    b.addInput("kt", DataType::Float32, shape(four, seq));
    b.addInput("v", DataType::Float32, shape(seq, four));
    Initializer w;
    w.name = "wq";
    w.dtype = DataType::Float32;
    w.dims = {4, 4};
    w.elementCount = 16;
    w.byteSize = 64;
    b.addInitializer(std::move(w));
    b.addOp("MatMul", "query", {"x", "wq"}, {"q"});
    b.addOp("MatMul", "scores", {"q", "kt"}, {"s"});
    b.addOp("Softmax", "softmax", {"s"}, {"p"}, {{"axis", std::int64_t{-1}}});
    std::vector<std::string> dropoutOutputs{"d"};
    if (namesMask)
        dropoutOutputs.push_back("mask");
    b.addOp("Dropout", "dropout", {"p"}, dropoutOutputs);
    b.addOp("MatMul", "context", {"d", "v"}, {"o"});
    b.setTensorType("q", DataType::Float32, shape(seq, four));
    for (const char* scores : {"s", "p", "d"})
        b.setTensorType(scores, DataType::Float32, shape(seq, seq));
    if (namesMask)
        b.setTensorType("mask", DataType::Bool, shape(seq, seq));
    b.setTensorType("o", DataType::Float32, shape(seq, four));
    b.markOutput("o");
    return foldModel(b.finish());
}


// An attention layer as a static export traced at batch 1 writes it (PyTorch's dynamo
// exporter at 1 x 10 tokens): width 32, 4 query heads and 2 key-value heads of 8. The
// keys are repeated to every query head ([1, 2, 2, 10, 8]) and reshaped for a batched
// matmul to [4, 10, 8], where the batch of 1 has merged into the heads, then back to
// [1, 4, 8, 10]; the values go straight to [1, 4, 10, 8].
FoldedModel staticGroupedQueryAttention()
{
    GraphBuilder b;
    const auto shape = [](std::vector<std::int64_t> dims) { return TensorShape::ofExtents(dims); };
    const auto weight = [&](const char* name, std::vector<std::int64_t> dims, DataType type) {
        b.addInitializer(test::testInitializer(name, type, std::move(dims)));
    };
    b.addInput("tokens", DataType::Int64, shape({1, 10}));
    weight("embedding", {50, 32}, DataType::Float32);
    for (const char* name : {"wq", "wo"})
        weight(name, {32, 32}, DataType::Float32);
    for (const char* name : {"wk", "wv"})
        weight(name, {32, 16}, DataType::Float32);
    for (const char* name : {"to_heads", "to_kv_heads", "to_rows", "to_batched", "to_four", "to_width", "repeat"})
        weight(name, {5}, DataType::Int64);
    weight("axis", {1}, DataType::Int64);
    const auto op = [&](const char* type, const char* name, std::vector<std::string> inputs, const char* output,
                        std::vector<std::int64_t> dims) {
        b.addOp(type, name, inputs, {output}, {}, ScopePath({"layers.0"}));
        b.setTensorType(output, DataType::Float32, shape(std::move(dims)));
    };
    op("Gather", "embed", {"embedding", "tokens"}, "x", {1, 10, 32});
    op("MatMul", "q_proj", {"x", "wq"}, "q", {1, 10, 32});
    op("Reshape", "q_heads", {"q", "to_heads"}, "q4", {1, 10, 4, 8});
    op("Transpose", "q_t", {"q4"}, "qt", {1, 4, 10, 8});
    for (const std::string kv : {"k", "v"}) {
        const std::string w = "w" + kv;
        op("MatMul", (kv + "_proj").c_str(), {"x", w}, kv.c_str(), {1, 10, 16});
        op("Reshape", (kv + "_heads").c_str(), {kv, "to_kv_heads"}, (kv + "4").c_str(), {1, 10, 2, 8});
        op("Transpose", (kv + "_t").c_str(), {kv + "4"}, (kv + "t").c_str(), {1, 2, 10, 8});
        op("Unsqueeze", (kv + "_u").c_str(), {kv + "t", "axis"}, (kv + "u").c_str(), {1, 2, 1, 10, 8});
        op("Expand", (kv + "_repeat").c_str(), {kv + "u", "repeat"}, (kv + "r").c_str(), {1, 2, 2, 10, 8});
    }
    op("Reshape", "k_batched", {"kr", "to_batched"}, "k3", {4, 10, 8});
    op("Transpose", "k_transposed", {"k3"}, "k3t", {4, 8, 10});
    op("Reshape", "k_four", {"k3t", "to_four"}, "keys", {1, 4, 8, 10});
    op("Reshape", "v_four", {"vr", "to_rows"}, "values", {1, 4, 10, 8});
    op("MatMul", "scores", {"qt", "keys"}, "s", {1, 4, 10, 10});
    b.addOp("Softmax", "softmax", {"s"}, {"p"}, {{"axis", std::int64_t{-1}}}, ScopePath({"layers.0"}));
    b.setTensorType("p", DataType::Float32, shape({1, 4, 10, 10}));
    op("MatMul", "context", {"p", "values"}, "c", {1, 4, 10, 8});
    op("Transpose", "c_t", {"c"}, "ct", {1, 10, 4, 8});
    op("Reshape", "c_width", {"ct", "to_width"}, "c3", {1, 10, 32});
    op("MatMul", "o_proj", {"c3", "wo"}, "out", {1, 10, 32});
    b.markOutput("out");
    return foldModel(b.finish());
}

CoarseNodeId nodeOfOpNamed(const FoldedModel& m, const std::string& name)
{
    for (const Op& op : m.graph().ops()) {
        if (op.name == name)
            return m.coarse.nodeOf[op.id.index()];
    }
    return {};
}
}  // namespace

class CostModelTest : public QObject {
    Q_OBJECT

private slots:
    void megatronLayerPaysFourAllReducesOfBsh()
    {
        const FoldedModel m = gptLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        Workload workload;
        workload.batch = 4;
        workload.sequence = 512;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes()));

        // A middle layer: 2 forward (after the row-parallel attention output and fc2)
        // and 2 backward (into the column-parallel QKV and fc1) all-reduces of b*s*h bf16.
        const double bsh = 4.0 * 512 * 768 * 2;
        const CostBreakdown layer = instanceCost(m, e, 1);
        const double expected = 4 * ringAllReduce(8, bsh, cluster.intraNode);
        QVERIFY2(near(layer.time.byCollective[collective(CollectiveKind::AllReduce)], expected),
                 qPrintable(QString::number(layer.time.byCollective[0]) + QStringLiteral(" vs ") + QString::number(expected)));
        QCOMPARE(layer.time.communicationSeconds(), layer.time.byCollective[collective(CollectiveKind::AllReduce)]);
        QVERIFY(near(layer.time.byAxis[1], expected));
        QCOMPARE(layer.time.byAxis[0], 0.0);
        QVERIFY(near(layer.time.byLink[static_cast<std::size_t>(LinkClass::Intra)], expected));
    }

    void sequenceParallelTradesAllReducesForGatherAndScatter()
    {
        const FoldedModel m = gptLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        Workload workload;
        workload.batch = 4;
        workload.sequence = 512;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        const PlanEvaluation e =
            costs.evaluate(makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, mesh.axes()));
        const CostBreakdown layer = instanceCost(m, e, 1);
        // Each all-reduce becomes a reduce-scatter plus an all-gather of the same tensor:
        // 4 of each per layer, forward and backward together.
        const double bsh = 4.0 * 512 * 768 * 2;
        // The only all-reduce left: sequence-sharded LayerNorms hold replicated weights,
        // so their gradients are summed over tp (one bucket for the model's 7 norms,
        // 2 x 768 parameters each; this layer owns 2 of them).
        const double bucket = 7 * 2 * 768 * 2.0;
        QVERIFY(near(layer.time.byCollective[collective(CollectiveKind::AllReduce)],
                     ringAllReduce(8, bucket, cluster.intraNode) * 2.0 / 7.0));
        QVERIFY(near(layer.time.byCollective[collective(CollectiveKind::AllGather)],
                     4 * ringGatherOrScatter(8, bsh, cluster.intraNode)));
        QVERIFY(near(layer.time.byCollective[collective(CollectiveKind::ReduceScatter)],
                     4 * ringGatherOrScatter(8, bsh, cluster.intraNode)));
        QCOMPARE(layer.time.byCollective[collective(CollectiveKind::AllToAll)], 0.0);
        // Norms and residuals hold 1/8 of the sequence, so activations shrink.
        const PlanEvaluation plain = costs.evaluate(makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes()));
        QVERIFY(instanceCost(m, e, 1).memory.activations < instanceCost(m, plain, 1).memory.activations);
    }

    void pureDataParallelIsOneGradientAllReduce()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, Workload{});
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));

        // The cost model's parameters are the model's: 857,216 for this Llama.
        double parameters = 0;
        for (const CoarseNode& node : m.coarse.nodes)
            parameters += costs.facts(node.id).parameterElements;
        QCOMPARE(parameters, static_cast<double>(countParameters(m.graph()).parameters));

        const double expected = ringAllReduce(8, parameters * 2, cluster.intraNode);
        QVERIFY(near(e.total.time.communicationSeconds(), expected));
        QVERIFY(near(e.total.time.byCollective[collective(CollectiveKind::AllReduce)], expected));
        // Every device keeps all weights: 2 + 2 + 12 bytes per parameter.
        QVERIFY(near(e.total.memory.parameters, parameters * 2));
        QVERIFY(near(e.total.memory.optimizerStates, parameters * 12));
    }

    void zeroOneShardsOptimizerStatesOverDataParallelAxes()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        Workload workload;
        workload.zeroStage = 1;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
        QVERIFY(near(e.total.memory.optimizerStates, 857216.0 * 12 / 8));
    }

    void tensorParallelAcrossNodesCostsTheBandwidthRatioMore()
    {
        const FoldedModel m = gptLayers();
        // Eight GPUs either in one node or one per node; latency zeroed so that only
        // the bandwidth term remains.
        Cluster inside = testCluster("dgx-h100x1");
        inside.intraNode.latencySeconds = 0;
        inside.interNode.latencySeconds = 0;
        Cluster across = inside;
        across.nodes = 8;
        across.gpusPerNode = 1;
        Workload workload;
        workload.batch = 4;
        workload.sequence = 512;
        const DeviceMesh meshInside({{"tp", 8}}, inside);
        const DeviceMesh meshAcross({{"tp", 8}}, across);
        QCOMPARE(meshAcross.group(0).span, GroupSpan::InterNode);
        const CostModel a(m.graph(), m.coarse, m.families, inside, meshInside, workload);
        const CostModel b(m.graph(), m.coarse, m.families, across, meshAcross, workload);
        const Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, meshInside.axes());
        const double intra = a.evaluate(plan).total.time.communicationSeconds();
        const double inter = b.evaluate(plan).total.time.communicationSeconds();
        QVERIFY(near(inter / intra, inside.intraNode.bytesPerSecond / inside.interNode.bytesPerSecond));
        QVERIFY(near(b.evaluate(plan).total.time.byLink[static_cast<std::size_t>(LinkClass::Inter)], inter));
    }

    void breakdownsAddUpToTheirTotals()
    {
        const FoldedModel m = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 8}}, cluster);
        Workload workload;
        workload.batch = 8;
        workload.sequence = 2048;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        for (const ExpertPlanKind kind :
             {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron, ExpertPlanKind::MegatronSequenceParallel}) {
            const PlanEvaluation e = costs.evaluate(makeExpertPlan(kind, m.coarse, mesh.axes()));
            CostBreakdown nodes;
            nodes.time.byAxis.assign(2, 0.0);
            for (const CostBreakdown& node : e.perNode)
                nodes.add(node);
            // Summed in the evaluator's own order: identical to the last bit.
            QCOMPARE(nodes.time.stepSeconds(), e.total.time.stepSeconds());
            QCOMPARE(nodes.memory.total(), e.total.memory.total());
            CostBreakdown ops;
            ops.time.byAxis.assign(2, 0.0);
            for (const CostBreakdown& op : e.perOp)
                ops.add(op);
            QVERIFY(near(ops.time.stepSeconds(), e.total.time.stepSeconds()));
            QVERIFY(near(ops.memory.total(), e.total.memory.total()));
            const TimeBreakdown& t = e.total.time;
            QVERIFY(near(t.byAxis[0] + t.byAxis[1], t.communicationSeconds()));
            QVERIFY(near(t.byLink[0] + t.byLink[1], t.communicationSeconds()));
            // The layer family is the sum over all 32 instances' nodes.
            CostBreakdown layers;
            layers.time.byAxis.assign(2, 0.0);
            for (const BlockInstance& instance : m.families.families.front().instances) {
                for (const CoarseNodeId id : instance.nodes)
                    layers.add(e.perNode[id.index()]);
            }
            QCOMPARE(e.perFamily[0].time.stepSeconds(), layers.time.stepSeconds());
            QVERIFY(e.perFamily[0].time.stepSeconds() < t.stepSeconds());
        }
    }

    void dataParallelOverNodesCrossesTheInterNodeLinks()
    {
        // Megatron on [2, 8] over two DGX nodes: tensor parallelism stays inside a node
        // (intra links only on tp), gradient synchronization crosses nodes on dp.
        const FoldedModel m = gptLayers();
        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 8}}, cluster);
        Workload workload;
        workload.batch = 8;
        workload.sequence = 512;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload);
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes()));
        const TimeBreakdown& t = e.total.time;
        QVERIFY(near(t.byLink[static_cast<std::size_t>(LinkClass::Inter)], t.byAxis[0]));
        QVERIFY(near(t.byLink[static_cast<std::size_t>(LinkClass::Intra)], t.byAxis[1]));
        QVERIFY(t.byAxis[0] > 0);
    }

    void staticExportsRebindBatchAndSequence()
    {
        const Graph graph = importOnnxModel(std::string(TAPESTRY_TEST_DATA_DIR) + "/llama3_8b_shape.dynamo.stripped.onnx");
        // The export's 1 x 16 tokens are a trace-time dummy: without a workload the
        // defaults apply, and the binder says so.
        const ShapeBinder asExported(graph, Workload{});
        QCOMPARE(asExported.modelBatch(), std::int64_t{1});
        QCOMPARE(asExported.modelSequence(), std::int64_t{16});
        QCOMPARE(asExported.batch(), ShapeBinder::kDefaultBatch);
        QCOMPARE(asExported.sequence(), ShapeBinder::kDefaultSequence);
        QVERIFY(asExported.batchSource() == ShapeBinder::Source::Default);
        QVERIFY(asExported.sequenceSource() == ShapeBinder::Source::Default);
        Workload bigger;
        bigger.batch = 8;
        bigger.sequence = 2048;
        const ShapeBinder bound(graph, bigger);
        // [1, 16, 4096] hidden states become [8, 2048, 4096]; [4096, 1024] weights are
        // never passed to the binder.
        QCOMPARE(bound.extents(TensorShape::ofExtents({1, 16, 4096})), (std::vector<std::int64_t>{8, 2048, 4096}));
        QCOMPARE(bound.extents(TensorShape::ofExtents({1, 32, 16, 16})), (std::vector<std::int64_t>{8, 32, 2048, 2048}));
        QCOMPARE(bound.extents(TensorShape::ofExtents({16, 4096})), (std::vector<std::int64_t>{16384, 4096}));
        // With 16 heads and 16 export tokens, [1, 16, 16, 64] keeps one axis: 8 x 16 x 2048 x 64.
        QCOMPARE(bound.extents(TensorShape::ofExtents({1, 16, 16, 64})), (std::vector<std::int64_t>{8, 16, 2048, 64}));
        QCOMPARE(bound.extents(TensorShape::ofExtents({1, 16, 16, 16})), (std::vector<std::int64_t>{8, 16, 2048, 2048}));
        const TensorShape symbolic({Dimension::symbolic("batch"), Dimension::symbolic("sequence"), Dimension::known(8)});
        QCOMPARE(bound.extents(symbolic), (std::vector<std::int64_t>{8, 2048, 8}));
        // Exporters' symbols in any case: "Batch_Size", "SeqLen", "total_LENGTH"; any
        // other symbol binds to 1 past the first axis.
        const TensorShape named({Dimension::symbolic("Batch_Size"), Dimension::symbolic("SeqLen"),
                                 Dimension::symbolic("total_LENGTH"), Dimension::symbolic("heads")});
        QCOMPARE(bound.extents(named), (std::vector<std::int64_t>{8, 2048, 2048, 1}));
        QVERIFY(bound.isSequenceAxis(named, 1) && bound.isSequenceAxis(named, 2));
        QVERIFY(!bound.isSequenceAxis(named, 3));
    }

    // Attention keeps its keys as the stack's call takes them: with their own 2 heads
    // (grouped), Q and K are 2 bytes x b x s x (4 + 2) x 8 at the QK^T matmul; repeated,
    // 2 x b x s x (4 + 4) x 8. At 16 x 256 tokens over 8 GPUs, b = 2 and s = 256: 49,152
    // and 65,536 bytes. The [4, 10, 8] reshape on the keys' way back has no axis the
    // binder can rebind to the batch (4 x 256 x 8 x 2 = 16,384 bytes for the whole batch
    // of 16); it was read as the keys' size (2,048 bytes per GPU).
    void staticExportsKeepGroupedKeysAtTheirSize()
    {
        const FoldedModel m = staticGroupedQueryAttention();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const CoarseNodeId scores = nodeOfOpNamed(m, "scores");
        const CoarseNodeId context = nodeOfOpNamed(m, "context");
        QVERIFY(scores.isValid() && context.isValid() && scores != context);
        const double bs = 2.0 * 256;
        for (const auto& [heads, qk, v] : {std::tuple{KeyValueHeads::Grouped, 2 * bs * (4 + 2) * 8, 2 * bs * 2 * 8},
                                          std::tuple{KeyValueHeads::Repeated, 2 * bs * (4 + 4) * 8, 2 * bs * 4 * 8}}) {
            Workload w = workload(16, 256);
            w.keyValueHeads = heads;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
            const double gotQk = e.perNode[scores.index()].memory.activations;
            const double gotV = e.perNode[context.index()].memory.activations;
            QVERIFY2(near(gotQk, qk), qPrintable(QString::fromUtf8(keyValueHeadsName(heads)) + QStringLiteral(": QK ") +
                                                 QString::number(gotQk) + QStringLiteral(" vs ") + QString::number(qk)));
            QVERIFY2(near(gotV, v), qPrintable(QString::fromUtf8(keyValueHeadsName(heads)) + QStringLiteral(": V ") +
                                               QString::number(gotV) + QStringLiteral(" vs ") + QString::number(v)));
        }
    }

    // The same on the real static export (Llama-3-8B shape, traced at 1 x 16 tokens; its
    // keys pass [32, 16, 128] on their way back): h = 4096, 8 key-value heads of 128.
    // Grouped, each layer keeps 2 bytes x b x s x (h + 2 x 1024) of Q, K and V at its two
    // attention matmuls; at 16 x 2048 over 8 GPUs (b = 2) 50,331,648 bytes, as a
    // synthesized Llama-3-8B keeps. Ring attention (dp 2 x cp 4, b = 8 per data-parallel
    // rank at 2048 tokens) sends K and V at their own heads: 2 x 8 x 2048 x 1024 bytes.
    void staticLlama3KeepsGroupedKeysAndValuesAtTheirSize()
    {
        const FoldedModel m = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const Cluster cluster = testCluster("dgx-h100x1");
        Workload w = workload(16, 2048);
        w.keyValueHeads = KeyValueHeads::Grouped;
        const DeviceMesh data({{"dp", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, data, w);
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, data.axes()));
        int layers = 0;
        for (const BlockInstance& layer : m.families.families.front().instances) {
            double attention = 0;
            for (const CoarseNodeId id : layer.nodes)
                attention += m.coarse.node(id).kind == CoarseNodeKind::BatchedMatMul ? e.perNode[id.index()].memory.activations : 0;
            const double expected = 2.0 * 2 * 2048 * (4096 + 2 * 1024);
            QVERIFY2(near(attention, expected), qPrintable(QString::number(attention) + QStringLiteral(" vs ") +
                                                           QString::number(expected)));
            ++layers;
        }
        QCOMPARE(layers, 32);

        const DeviceMesh ringMesh({{"dp", 2}, {"cp", 4}}, cluster);
        const CostModel ringCosts(m.graph(), m.coarse, m.families, cluster, ringMesh, w);
        const PlanEvaluation ring =
            ringCosts.evaluate(makeExpertPlan(ExpertPlanKind::RingAttention, m.coarse, ringMesh.axes()));
        const double kv = 2.0 * 8 * 2048 * 1024;
        int transfers = 0;
        for (const ParallelTransfer& t : ring.parallelTransfers) {
            QVERIFY2(near(t.bytes, kv), qPrintable(QString::number(t.bytes) + QStringLiteral(" vs ") + QString::number(kv)));
            ++transfers;
        }
        QCOMPARE(transfers, 32 * 2 * 3);  // per layer K and V, forward, backward and gradients
    }

    // Unfused attention's dropout of the scores runs as its own kernel: the probabilities in,
    // its output and a one-byte mask out (2 + 2 + 1 bytes per score element), the same bytes
    // backward. torch.nn.Dropout writes the mask in training whether or not the graph
    // names it, so a Dropout with one output is priced as one with two.
    void unfusedDropoutWritesItsMaskUnnamedOrNot()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        Workload w;
        w.batch = 16;
        w.sequence = 512;
        w.attention = AttentionKernel::Unfused;
        const double scoresPerGpu = 2.0 * 2 * 512 * 512;  // 2 of the 16 sequences, 2 heads, s^2
        const double expected = 2 * memoryBoundSeconds(cluster.gpu, 5 * scoresPerGpu);
        for (const bool namesMask : {true, false}) {
            const FoldedModel m = attentionCore(namesMask);
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
            int dropouts = 0;
            for (const Op& op : m.graph().ops()) {
                if (op.type != "Dropout")
                    continue;
                ++dropouts;
                const double priced = e.perOp[op.id.index()].time.computeSeconds;
                QVERIFY2(near(priced, expected), qPrintable(QStringLiteral("mask named %1: %2 s vs %3 s")
                                                                .arg(namesMask).arg(priced).arg(expected)));
            }
            QCOMPARE(dropouts, 1);
        }
    }

    void plansMustFitTheModelAndMesh()
    {
        const FoldedModel m = gptLayers();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, Workload{});
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        // A norm cannot be split by columns.
        for (const CoarseNode& node : m.coarse.nodes) {
            if (node.kind == CoarseNodeKind::Normalization) {
                plan.strategies[node.id.index()].axes[1] = AxisSplit::Column;
                break;
            }
        }
        QVERIFY_THROWS_EXCEPTION(Error, (void)costs.evaluate(plan));
        Plan wrongMesh = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"tp", 8}});
        QVERIFY_THROWS_EXCEPTION(Error, (void)costs.evaluate(wrongMesh));
    }
};

QTEST_APPLESS_MAIN(CostModelTest)
#include "CostModelTest.moc"
