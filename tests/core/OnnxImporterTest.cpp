// The importer on the real exporter output in tests/data: op counts equal the files'
// node counts, planning ops have shapes, scopes come out the same from both exporters,
// and parameter counts match the architectures' closed forms.
#include "graph/ModelSummary.h"
#include "graph/ParameterCount.h"
#include "graph/ScopeTree.h"
#include "onnx/OnnxImporter.h"

#include <QTest>

#include <set>

using namespace tapestry;

namespace {

std::string dataFile(const char* name)
{
    return std::string(TAPESTRY_TEST_DATA_DIR) + "/" + name;
}

const Op* findOp(const Graph& graph, const std::string& scope, const std::string& type)
{
    for (const Op& op : graph.ops()) {
        if (op.type == type && op.scope.toString() == scope)
            return &op;
    }
    return nullptr;
}

const Op* findOpNamed(const Graph& graph, const std::string& name)
{
    for (const Op& op : graph.ops()) {
        if (op.name == name)
            return &op;
    }
    return nullptr;
}

const Initializer& initializerNamed(const Graph& graph, const std::string& name)
{
    const TensorId id = graph.findTensor(name);
    if (!id.isValid() || !graph.tensor(id).initializer.isValid())
        throw std::runtime_error("no initializer " + name);
    return graph.initializer(graph.tensor(id).initializer);
}

std::vector<std::int64_t> extents(const TensorShape& shape)
{
    std::vector<std::int64_t> out;
    for (const Dimension& d : shape.dims())
        out.push_back(d.value);
    return out;
}

// Module paths of the weight-bearing MatMuls in decoder layer `layer`.
std::set<std::string> projectionScopes(const Graph& graph, const std::string& layerPrefix)
{
    std::set<std::string> scopes;
    for (const Op& op : graph.ops()) {
        const std::string path = op.scope.toModulePath();
        if (op.type != "MatMul" || path.rfind(layerPrefix, 0) != 0)
            continue;
        for (const TensorId input : op.inputs) {
            if (input.isValid() && graph.tensor(input).role == TensorRole::Initializer)
                scopes.insert(path);
        }
    }
    return scopes;
}

}  // namespace

class OnnxImporterTest : public QObject {
    Q_OBJECT

private slots:
    void opCountsEqualNodeCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<bool>("needsInference");
        // Node counts as the files hold them (protoc --decode, count of graph.node).
        QTest::newRow("bert.dynamo") << "bert.dynamo.stripped.onnx" << 230 << false;
        QTest::newRow("gpt2.ts") << "gpt2.ts.stripped.onnx" << 482 << true;
        QTest::newRow("gpt2_medium_shape.ts") << "gpt2_medium_shape.ts.stripped.onnx" << 3851 << true;
        QTest::newRow("llama.dynamo") << "llama.dynamo.stripped.onnx" << 269 << false;
        QTest::newRow("llama.ts") << "llama.ts.stripped.onnx" << 549 << true;
        QTest::newRow("llama.ts.weights") << "llama.ts.weights.onnx" << 549 << true;
        QTest::newRow("llama3_8b_shape.dynamo") << "llama3_8b_shape.dynamo.stripped.onnx" << 2191 << false;
        QTest::newRow("resnet50.ts") << "resnet50.ts.stripped.onnx" << 176 << true;
        QTest::newRow("vit.ts") << "vit.ts.stripped.onnx" << 397 << true;
        QTest::newRow("torch113_bert_minilm_l6") << "torch113_bert_minilm_l6_hfnames.stripped.onnx" << 610 << true;
        // ONNX inference alone left the window attention unsized (a data-dependent Pad
        // and the Reshapes after it); the importer evaluates those shape computations.
        QTest::newRow("torch113_swin_t") << "torch113_swin_t.stripped.onnx" << 6623 << true;
    }

    void opCountsEqualNodeCounts()
    {
        QFETCH(QString, file);
        QFETCH(int, nodes);
        QFETCH(bool, needsInference);
        const Graph graph = importOnnxModel(dataFile(file.toUtf8().constData()));
        QCOMPARE(graph.opCount(), static_cast<std::size_t>(nodes));
        QCOMPARE(graph.topologicalOrder().size(), static_cast<std::size_t>(nodes));
        QCOMPARE(graph.info().shapesInferred, needsInference);

        int planningOps = 0;
        for (const Op& op : graph.ops()) {
            if (op.type != "MatMul" && op.type != "Gemm" && op.type != "Conv")
                continue;
            ++planningOps;
            QVERIFY2(graph.tensor(op.inputs[0]).shape.isRankKnown(), op.name.c_str());
            QVERIFY2(graph.tensor(op.inputs[1]).shape.isRankKnown(), op.name.c_str());
            QVERIFY2(graph.tensor(op.outputs[0]).shape.isRankKnown(), op.name.c_str());
        }
        QVERIFY(planningOps > 0);
    }

    void llamaScopesAgreeAcrossExporters()
    {
        const Graph ts = importOnnxModel(dataFile("llama.ts.stripped.onnx"));
        const Graph dynamo = importOnnxModel(dataFile("llama.dynamo.stripped.onnx"));
        const std::set<std::string> expected = {
            "model.layers.2.self_attn.q_proj", "model.layers.2.self_attn.k_proj", "model.layers.2.self_attn.v_proj",
            "model.layers.2.self_attn.o_proj", "model.layers.2.mlp.gate_proj",   "model.layers.2.mlp.up_proj",
            "model.layers.2.mlp.down_proj"};
        QCOMPARE(projectionScopes(ts, "model.layers.2."), expected);
        QCOMPARE(projectionScopes(dynamo, "model.layers.2."), expected);
    }

    void llamaProjectionShapes()
    {
        // hidden 128, 4 heads, 2 KV heads (head dim 32): k_proj maps 128 -> 64; FFN 344.
        for (const char* file : {"llama.ts.stripped.onnx", "llama.dynamo.stripped.onnx"}) {
            const Graph graph = importOnnxModel(dataFile(file));
            const Op* k = findOp(graph, "model/layers.0/self_attn/k_proj", "MatMul");
            QVERIFY2(k, file);
            QCOMPARE(extents(graph.tensor(k->inputs[1]).shape), (std::vector<std::int64_t>{128, 64}));
            QCOMPARE(extents(graph.tensor(k->outputs[0]).shape), (std::vector<std::int64_t>{1, 16, 64}));
            const Op* down = findOp(graph, "model/layers.3/mlp/down_proj", "MatMul");
            QVERIFY2(down, file);
            QCOMPARE(extents(graph.tensor(down->inputs[1]).shape), (std::vector<std::int64_t>{344, 128}));
        }
    }

    void swinWindowAttentionShapes()
    {
        // Swin-T stage 1: 56 x 56 patches of 96 channels in 64 windows of 7 x 7 = 49,
        // 3 heads of 32; stage 3: 14 x 14 in 4 windows, 12 heads of 32.
        const Graph graph = importOnnxModel(dataFile("torch113_swin_t.stripped.onnx"));
        const Op* scores = findOpNamed(graph, "/features/features.1/features.1.0/attn/MatMul_1");  // q k^T
        QVERIFY(scores);
        QCOMPARE(extents(graph.tensor(scores->inputs[0]).shape), (std::vector<std::int64_t>{64, 3, 49, 32}));
        QCOMPARE(extents(graph.tensor(scores->outputs[0]).shape), (std::vector<std::int64_t>{64, 3, 49, 49}));
        const Op* deep = findOpNamed(graph, "/features/features.5/features.5.3/attn/MatMul_1");
        QVERIFY(deep);
        QCOMPARE(extents(graph.tensor(deep->outputs[0]).shape), (std::vector<std::int64_t>{4, 12, 49, 49}));
    }

    void gpt2ConvOneDExportsAsGemm()
    {
        const Graph graph = importOnnxModel(dataFile("gpt2.ts.stripped.onnx"));
        const Op* cAttn = findOp(graph, "transformer/h.0/attn/c_attn", "Gemm");
        QVERIFY(cAttn);
        QCOMPARE(cAttn->name, std::string("/transformer/h.0/attn/c_attn/Gemm"));
        QCOMPARE(extents(graph.tensor(cAttn->inputs[1]).shape), (std::vector<std::int64_t>{128, 384}));
    }

    void parametersMatchClosedForms()
    {
        // Llama (h 128, 4 layers, KV dim 64, FFN 344, vocab 512, untied head):
        // embed 512h + 4 * (2*h*h + 2*h*64 + 3*h*344 + 2h) + h + head 512h = 857,216.
        const std::uint64_t h = 128;
        const std::uint64_t llama = 512 * h + 4 * (2 * h * h + 2 * h * 64 + 3 * h * 344 + 2 * h) + h + 512 * h;
        QCOMPARE(llama, std::uint64_t{857216});
        QCOMPARE(countParameters(importOnnxModel(dataFile("llama.ts.stripped.onnx"))).parameters, llama);
        QCOMPARE(countParameters(importOnnxModel(dataFile("llama.dynamo.stripped.onnx"))).parameters, llama);

        // GPT-2: V*h + P*h + L*(12h^2 + 13h) + 2h, plus the LM head. gpt2_medium's export
        // hands the tied head over as Identity(wte): one parameter. gpt2.ts folded
        // Transpose(wte) into an anonymous constant: nothing in the file says it is
        // tied, so it counts as the V*h weight the file holds.
        for (const auto& [file, hidden, layers, separateHead] :
             {std::tuple{"gpt2.ts.stripped.onnx", 128u, 6u, true},
              std::tuple{"gpt2_medium_shape.ts.stripped.onnx", 1024u, 24u, false}}) {
            const Graph graph = importOnnxModel(dataFile(file));
            const std::uint64_t vocab = static_cast<std::uint64_t>(initializerNamed(graph, "transformer.wte.weight").dims[0]);
            const std::uint64_t positions = static_cast<std::uint64_t>(initializerNamed(graph, "transformer.wpe.weight").dims[0]);
            const std::uint64_t hh = hidden;
            const std::uint64_t expected = (vocab + positions) * hh + layers * (12 * hh * hh + 13 * hh) + 2 * hh +
                                           (separateHead ? vocab * hh : 0);
            QCOMPARE(countParameters(graph).parameters, expected);
        }
        // GPT-2 medium is the 355 M model: 354,823,168 with its 50257 x 1024 vocabulary.
        QCOMPARE(countParameters(importOnnxModel(dataFile("gpt2_medium_shape.ts.stripped.onnx"))).parameters,
                 std::uint64_t{354823168});

        // torchvision ResNet-50: 25,557,032 (BatchNorm running statistics excluded).
        QCOMPARE(countParameters(importOnnxModel(dataFile("resnet50.ts.stripped.onnx"))).parameters,
                 std::uint64_t{25557032});

        // ViT (h 192, 6 layers, FFN 768, 64x64 image, 8x8 patches -> 65 positions):
        // L*(4(h^2+h) + 4h + 2*h*768 + 768 + h) + conv 3*8*8*h + h + cls h + 65h + final LN 2h + pooler h^2+h.
        const std::uint64_t v = 192;
        const std::uint64_t vit = 6 * (4 * (v * v + v) + 4 * v + 2 * v * 768 + 768 + v) + 3 * 8 * 8 * v + v + v +
                                  65 * v + 2 * v + v * v + v;
        QCOMPARE(countParameters(importOnnxModel(dataFile("vit.ts.stripped.onnx"))).parameters, vit);

        // torchvision Swin-T: 28,288,354. Its torch 1.13 export folded each block's
        // relative position bias, table[index] (169 x heads, the parameter), into the
        // gathered [1, heads, 49, 49] it adds to the scores: the file holds no table, so the
        // count has 12 blocks' expansions (2401 x 138 heads) where the tables (169 x 138)
        // were, as for gpt2.ts's folded head above.
        const std::uint64_t heads = 2 * 3 + 2 * 6 + 6 * 12 + 2 * 24;
        QCOMPARE(countParameters(importOnnxModel(dataFile("torch113_swin_t.stripped.onnx"))).parameters,
                 std::uint64_t{28288354} - 169 * heads + 49 * 49 * heads);
    }

    void llama3EightBillionWithoutOpeningWeights()
    {
        const Graph graph = importOnnxModel(dataFile("llama3_8b_shape.dynamo.stripped.onnx"));
        const ParameterCount count = countParameters(graph);
        // Llama-3-8B: 8.0304 B parameters.
        QVERIFY2(std::abs(static_cast<double>(count.parameters) / 8.0304e9 - 1.0) < 0.005,
                 std::to_string(count.parameters).c_str());
        // The dynamo exporter stores q_proj's weight pre-transposed under an anonymous
        // name: find it through the consuming op, never by name.
        const Op* qProj = findOp(graph, "model/layers.0/self_attn/q_proj", "MatMul");
        QVERIFY(qProj);
        const Initializer& q = graph.initializer(graph.tensor(qProj->inputs[1]).initializer);
        QCOMPARE(q.location, DataLocation::External);
        QVERIFY(q.data.empty());
        QCOMPARE(q.byteSize, std::uint64_t{4096} * 4096 * static_cast<std::uint64_t>(dataTypeBits(q.dtype)) / 8);
        const ScopeTree tree = ScopeTree::build(graph);
        const ScopeNode& model = tree.node(tree.node(tree.root()).children.front());
        QCOMPARE(model.path, std::string("model"));
        int layers = 0;
        for (const ScopeNodeId child : model.children)
            layers += tree.node(child).name.rfind("layers.", 0) == 0 ? 1 : 0;
        QCOMPARE(layers, 32);
    }

    void inlineWeightsOnlyOnRequest()
    {
        const std::string file = dataFile("llama.ts.weights.onnx");
        const Graph lean = importOnnxModel(file);
        const Graph full = importOnnxModel(file, {.keepInlineWeights = true});
        const Initializer& leanEmbed = initializerNamed(lean, "model.embed_tokens.weight");
        const Initializer& fullEmbed = initializerNamed(full, "model.embed_tokens.weight");
        QCOMPARE(leanEmbed.location, DataLocation::Inline);
        QVERIFY(leanEmbed.data.empty());
        QCOMPARE(fullEmbed.data.size(), static_cast<std::size_t>(512 * 128 * 4));
        QCOMPARE(fullEmbed.byteSize, std::uint64_t{512 * 128 * 4});
    }

    void summaryDescribesModel()
    {
        const ModelSummary s = summarizeModel(importOnnxModel(dataFile("llama.dynamo.stripped.onnx")));
        QCOMPARE(s.info.producerName, std::string("pytorch"));
        QCOMPARE(s.info.irVersion, std::int64_t{10});
        QCOMPARE(s.opCount, std::size_t{269});
        std::uint64_t histogramTotal = 0;
        for (const OpTypeCount& entry : s.opHistogram)
            histogramTotal += entry.count;
        QCOMPARE(histogramTotal, std::uint64_t{269});
        for (std::size_t i = 1; i < s.opHistogram.size(); ++i)
            QVERIFY(s.opHistogram[i - 1].count >= s.opHistogram[i].count);
        QCOMPARE(s.inputs.size(), std::size_t{2});
        QCOMPARE(s.inputs[0].name, std::string("input_ids"));
        QCOMPARE(s.inputs[1].name, std::string("attention_mask"));
        // Depth-1 and depth-2 scopes: model, its children, lm_head.
        QCOMPARE(s.scopes.front().path, std::string("model"));
        QCOMPARE(s.scopes.front().opCount, 268u);
    }
};

QTEST_APPLESS_MAIN(OnnxImporterTest)
#include "OnnxImporterTest.moc"
