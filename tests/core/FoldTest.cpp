// Coarsening and pruning on real exports, on synthesized reference models, and on
// small inline graphs that must not fold (a changed shape, a changed op).
#include "FoldedTestModel.h"
#include "fold/FoldedGraph.h"
#include "fold/PrunePass.h"
#include "graph/GraphBuilder.h"

#include <QTest>

#include <set>

using namespace tapestry;
using namespace tapestry::test;

namespace {

const Family* familyNamed(const FamilyTable& table, const std::string& name)
{
    for (const Family& family : table.families) {
        if (family.name == name)
            return &family;
    }
    return nullptr;
}

std::size_t topLevelFamilies(const FamilyTable& table)
{
    std::size_t count = 0;
    for (const Family& family : table.families)
        count += family.parent.isValid() ? 0 : 1;
    return count;
}

// Module paths of the Linear anchors of a family's representative, without the
// instance prefix ("self_attn/q_proj").
std::set<std::string> linearAnchorModules(const FoldedModel& f, const Family& family)
{
    std::set<std::string> modules;
    const std::string prefix = family.representative().scope + "/";
    for (const CoarseNodeId id : family.anchors) {
        const CoarseNode& node = f.coarse.node(id);
        if (node.kind == CoarseNodeKind::Linear)
            modules.insert(node.scope.toString().substr(prefix.size()));
    }
    return modules;
}

// Two transformer-ish blocks "blocks.N" of x -> MatMul(W) -> act -> MatMul(W2) -> add.
void addBlock(GraphBuilder& b, int index, const std::string& in, const std::string& out, std::int64_t width,
              const std::string& activation)
{
    const std::string s = "blocks." + std::to_string(index);
    const auto scope = [&](const char* module) { return ScopePath({s, module}); };
    auto weight = [&](const std::string& name, std::int64_t rows, std::int64_t cols) {
        Initializer w;
        w.name = name;
        w.dtype = DataType::Float32;
        w.dims = {rows, cols};
        w.elementCount = static_cast<std::uint64_t>(rows * cols);
        w.byteSize = w.elementCount * 4;
        b.addInitializer(std::move(w));
    };
    weight(s + ".up.weight", 8, width);
    weight(s + ".down.weight", width, 8);
    b.addOp("MatMul", "/" + s + "/up/MatMul", {in, s + ".up.weight"}, {s + "/h"}, {}, scope("up"));
    b.addOp(activation, "/" + s + "/act/" + activation, {s + "/h"}, {s + "/a"}, {}, scope("act"));
    b.addOp("MatMul", "/" + s + "/down/MatMul", {s + "/a", s + ".down.weight"}, {s + "/d"}, {}, scope("down"));
    b.addOp("Add", "/" + s + "/Add", {in, s + "/d"}, {out}, {}, ScopePath({s}));
    const TensorShape wide({Dimension::symbolic("batch"), Dimension::known(width)});
    const TensorShape narrow({Dimension::symbolic("batch"), Dimension::known(8)});
    b.setTensorType(s + "/h", DataType::Float32, wide);
    b.setTensorType(s + "/a", DataType::Float32, wide);
    b.setTensorType(s + "/d", DataType::Float32, narrow);
    b.setTensorType(out, DataType::Float32, narrow);
}

Graph stackOfBlocks(const std::vector<std::pair<std::int64_t, std::string>>& blocks)
{
    GraphBuilder b;
    b.addInput("x", DataType::Float32, TensorShape({Dimension::symbolic("batch"), Dimension::known(8)}));
    std::string stream = "x";
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::string out = "stream" + std::to_string(i);
        addBlock(b, static_cast<int>(i), stream, out, blocks[i].first, blocks[i].second);
        stream = out;
    }
    b.markOutput(stream);
    return b.finish();
}

}  // namespace

class FoldTest : public QObject {
    Q_OBJECT

private slots:
    void coarseGraphInvariants()
    {
        const FoldedModel f = foldTestFile("llama.ts.stripped.onnx");
        QCOMPARE(f.coarse.nodeOf.size(), f.graph().opCount());
        std::size_t members = 0;
        for (const CoarseNode& node : f.coarse.nodes) {
            members += node.ops.size() + node.auxiliaryOps.size();
            for (const OpId op : node.ops)
                QCOMPARE(f.coarse.nodeOf[op.index()], node.id);
            QCOMPARE(node.anchor.isValid(), isAnchorKind(node.kind));
        }
        QCOMPARE(members, f.graph().opCount());  // every op in exactly one node
        for (const CoarseEdge& edge : f.coarse.edges)
            QVERIFY(edge.from < edge.to);
    }

    void llamaFoldsToOneDecoderFamilyFromBothExporters()
    {
        const std::set<std::string> projections = {"self_attn/q_proj", "self_attn/k_proj", "self_attn/v_proj",
                                                   "self_attn/o_proj", "mlp/gate_proj",     "mlp/up_proj",
                                                   "mlp/down_proj"};
        std::vector<std::size_t> anchorsPerExporter;
        for (const char* file : {"llama.ts.stripped.onnx", "llama.dynamo.stripped.onnx"}) {
            const FoldedModel f = foldTestFile(file);
            QCOMPARE(f.families.families.size(), std::size_t{1});
            const Family& layers = f.families.families.front();
            QCOMPARE(layers.name, std::string("model/layers.#"));
            QCOMPARE(layers.multiplicity(), std::size_t{4});
            QCOMPARE(layers.representative().scope, std::string("model/layers.0"));
            QCOMPARE(linearAnchorModules(f, layers), projections);
            anchorsPerExporter.push_back(layers.anchors.size());
            // 7 projections + 2 attention matmuls per layer, embedding and LM head outside.
            QCOMPARE(layers.anchors.size(), std::size_t{9});
            QCOMPARE(f.families.decisionAnchors, std::size_t{11});
        }
        QCOMPARE(anchorsPerExporter[0], anchorsPerExporter[1]);
    }

    void realExportsFold_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("multiplicity");
        QTest::newRow("llama3_8b_shape") << "llama3_8b_shape.dynamo.stripped.onnx" << "model/layers.#" << 32;
        QTest::newRow("gpt2.ts") << "gpt2.ts.stripped.onnx" << "transformer/h.#" << 6;
        QTest::newRow("gpt2_medium_shape") << "gpt2_medium_shape.ts.stripped.onnx" << "transformer/h.#" << 24;
        QTest::newRow("bert.dynamo") << "bert.dynamo.stripped.onnx" << "encoder/layer.#" << 6;
        QTest::newRow("vit.ts") << "vit.ts.stripped.onnx" << "layers.#" << 6;
        // All six layers are identical inside; the last one's output is the graph output,
        // declared with the exporter's own dim names: it folded x5 with layer 5 left out.
        QTest::newRow("torch113_bert_minilm_l6") << "torch113_bert_minilm_l6_hfnames.stripped.onnx"
                                                 << "encoder/layer.#" << 6;
    }

    void realExportsFold()
    {
        QFETCH(QString, file);
        QFETCH(QString, family);
        QFETCH(int, multiplicity);
        const FoldedModel f = foldTestFile(file.toUtf8().constData());
        QCOMPARE(topLevelFamilies(f.families), std::size_t{1});
        const Family* found = familyNamed(f.families, family.toStdString());
        QVERIFY(found);
        QCOMPARE(found->multiplicity(), static_cast<std::size_t>(multiplicity));
        QVERIFY(found->variants.empty());
    }

    void resnetStagesFoldWithoutTheirDownsamplingFirstBlock()
    {
        const FoldedModel f = foldTestFile("resnet50.ts.stripped.onnx");
        // Bottlenecks per stage 3, 4, 6, 3: the first of each has the downsample branch.
        const std::vector<std::pair<std::string, std::size_t>> expected = {
            {"layer1/layer#.#", 2}, {"layer2/layer#.#", 3}, {"layer3/layer#.#", 5}, {"layer4/layer#.#", 2}};
        QCOMPARE(f.families.families.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const Family& family = f.families.families[i];
            QCOMPARE(family.name, expected[i].first);
            QCOMPARE(family.multiplicity(), expected[i].second);
            QCOMPARE(family.anchors.size(), std::size_t{3});  // conv1, conv2, conv3
            const std::string stage = "layer" + std::to_string(i + 1);
            QCOMPARE(family.representative().scope, stage + "/" + stage + ".1");
        }
        // The downsampling blocks stay unfolded: 4 convs each (conv1-3 + downsample).
        for (const char* first : {"layer1/layer1.0", "layer2/layer2.0", "layer3/layer3.0", "layer4/layer4.0"}) {
            int convs = 0;
            for (const CoarseNodeId id : f.families.unfoldedNodes) {
                const CoarseNode& node = f.coarse.node(id);
                convs += node.kind == CoarseNodeKind::Conv && node.scope.toString().rfind(first, 0) == 0 ? 1 : 0;
            }
            QCOMPARE(convs, 4);
        }
    }

    void swinStagesFoldWithTheirShiftedWindowBlocks()
    {
        // torchvision Swin-T: stages of 2, 2, 6, 2 blocks. Every second block of the first
        // three stages shifts its windows (Slice + Concat rolls, a constant mask Add): the
        // same plan decisions, so it folds as a variant of the block before it. Stage 4's
        // 7 x 7 resolution fits one window, so its blocks do not shift.
        const FoldedModel f = foldTestFile("torch113_swin_t.stripped.onnx");
        const std::vector<std::pair<std::string, std::size_t>> expected = {
            {"features/features.1/features.#.#", 2},
            {"features/features.3/features.#.#", 2},
            {"features/features.5/features.#.#", 6},
            {"features/features.7/features.#.#", 2}};
        QCOMPARE(f.families.families.size(), expected.size());
        const std::string shifted = "+1 Add, +4 Concat, +2 Reshape, +8 Slice";
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const Family& family = f.families.families[i];
            QCOMPARE(family.name, expected[i].first);
            QCOMPARE(family.multiplicity(), expected[i].second);
            // qkv, q k^T, attention x v, proj, fc1, fc2.
            QCOMPARE(family.anchors.size(), std::size_t{6});
            QVERIFY(family.variants.empty());
            const std::size_t shiftedBlocks = i == 3 ? 0 : family.multiplicity() / 2;
            QCOMPARE(family.foldedVariants.size(), shiftedBlocks);
            for (std::size_t v = 0; v < family.foldedVariants.size(); ++v) {
                QCOMPARE(family.foldedVariants[v].instance.scope, family.instances[2 * v + 1].scope);
                QCOMPARE(family.foldedVariants[v].difference, shifted);
            }
        }
        // 12 blocks of 6 anchors become 4 decisions of 6.
        std::size_t unfoldedAnchors = 0;
        for (const CoarseNodeId id : f.families.unfoldedNodes)
            unfoldedAnchors += isAnchorKind(f.coarse.node(id).kind) ? 1 : 0;
        QCOMPARE(f.families.decisionAnchors, unfoldedAnchors + 4 * 6);
    }

    void synthesizedReferenceModelsFold()
    {
        const FoldedModel gpt3 = foldSynthPreset("gpt3-175b");
        QCOMPARE(familyNamed(gpt3.families, "transformer/h.#")->multiplicity(), std::size_t{96});
        const FoldedModel llama70 = foldSynthPreset("llama2-70b");
        QCOMPARE(familyNamed(llama70.families, "model/layers.#")->multiplicity(), std::size_t{80});
    }

    void t5HasSeparateEncoderAndDecoderFamilies()
    {
        const FoldedModel t5 = foldSynthPreset("t5-base");
        const Family* encoder = familyNamed(t5.families, "encoder/block.#");
        const Family* decoder = familyNamed(t5.families, "decoder/block.#");
        QVERIFY(encoder && decoder);
        // block.0 owns the relative attention bias, so 11 of 12 blocks fold.
        QCOMPARE(encoder->multiplicity(), std::size_t{11});
        QCOMPARE(decoder->multiplicity(), std::size_t{11});
        // Decoder blocks add cross-attention: q, k, v, o and two attention matmuls.
        QCOMPARE(decoder->anchors.size(), encoder->anchors.size() + 6);
    }

    void moeExpertsFoldInsideTheLayerFamily()
    {
        const FoldedModel moe = foldSynthPreset("mixtral-8x7b");
        const Family* layers = familyNamed(moe.families, "model/layers.#");
        const Family* experts = familyNamed(moe.families, "model/layers.0/block_sparse_moe/experts.#");
        QVERIFY(layers && experts);
        QCOMPARE(layers->multiplicity(), std::size_t{32});
        QCOMPARE(experts->multiplicity(), std::size_t{8});
        QCOMPARE(experts->parent, layers->id);
        QCOMPARE(experts->anchors.size(), std::size_t{3});  // w1, w2, w3
        // The searcher decides one expert, not eight: 8 * 3 - 3 anchors fewer.
        std::size_t unfoldedAnchors = 0;
        for (const CoarseNodeId id : moe.families.unfoldedNodes)
            unfoldedAnchors += isAnchorKind(moe.coarse.node(id).kind) ? 1 : 0;
        QCOMPARE(moe.families.decisionAnchors, unfoldedAnchors + layers->anchors.size() - 7 * 3);
    }

    void identicalBlocksFold()
    {
        const FoldedModel f = foldModel(stackOfBlocks({{32, "Relu"}, {32, "Relu"}, {32, "Relu"}}));
        QCOMPARE(f.families.families.size(), std::size_t{1});
        QCOMPARE(f.families.families[0].name, std::string("blocks.#"));
        QCOMPARE(f.families.families[0].multiplicity(), std::size_t{3});
        QCOMPARE(f.families.decisionAnchors, std::size_t{2});
    }

    void differentShapesDoNotFold()
    {
        const FoldedModel f = foldModel(stackOfBlocks({{32, "Relu"}, {32, "Relu"}, {64, "Relu"}}));
        QCOMPARE(f.families.families.size(), std::size_t{1});
        const Family& family = f.families.families[0];
        QCOMPARE(family.multiplicity(), std::size_t{2});
        QCOMPARE(family.instances[1].scope, std::string("blocks.1"));
        QVERIFY(family.variants.empty());  // other weight shapes: not even near-identical
        QCOMPARE(f.families.decisionAnchors, std::size_t{4});
    }

    void changedOpDoesNotFoldButIsReportedAsVariant()
    {
        const FoldedModel f = foldModel(stackOfBlocks({{32, "Relu"}, {32, "Gelu"}, {32, "Relu"}}));
        QCOMPARE(f.families.families.size(), std::size_t{1});
        const Family& family = f.families.families[0];
        QCOMPARE(family.multiplicity(), std::size_t{2});
        QCOMPARE(family.instances[0].scope, std::string("blocks.0"));
        QCOMPARE(family.instances[1].scope, std::string("blocks.2"));
        QCOMPARE(family.variants.size(), std::size_t{1});
        QCOMPARE(family.variants[0].instance.scope, std::string("blocks.1"));
        QCOMPARE(family.variants[0].difference, std::string("+1 Gelu, -1 Relu"));
    }

    void foldedGraphCollapsesAndExpandsFamilies()
    {
        const FoldedModel f = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const FamilyId layers = f.families.families.front().id;

        const FoldedGraph collapsed = buildFoldedGraph(f.coarse, f.families);
        // Outside the 32 layers: embedding, mask preparation, final norm, LM head.
        QCOMPARE(collapsed.nodes.size(), f.families.unfoldedNodes.size() + 1);
        std::size_t familyNodes = 0;
        for (const FoldedNode& node : collapsed.nodes)
            familyNodes += node.kind == FoldedNode::Kind::Family ? 1 : 0;
        QCOMPARE(familyNodes, std::size_t{1});

        const FoldedGraph expanded = buildFoldedGraph(f.coarse, f.families, {layers});
        const std::size_t perLayer = f.families.families.front().representative().nodes.size();
        QCOMPARE(expanded.nodes.size(), f.families.unfoldedNodes.size() + perLayer);
        std::size_t inside = 0;
        for (const FoldedNode& node : expanded.nodes) {
            QCOMPARE(node.kind, FoldedNode::Kind::Coarse);
            inside += node.enclosing == layers ? 1 : 0;
        }
        QCOMPARE(inside, perLayer);
        // Edges from layer i to layer i+1 are implied, so the expanded block stays acyclic:
        // every edge goes forward in coarse order.
        for (const FoldedEdge& edge : expanded.edges) {
            QVERIFY(edge.from != edge.to);
            QVERIFY(expanded.nodes[edge.from].coarse < expanded.nodes[edge.to].coarse);
        }
    }

    void indexPatterns()
    {
        QCOMPARE(indexPattern("layers.12"), std::string("layers.#"));
        QCOMPARE(indexPattern("layer2.10"), std::string("layer#.#"));
        QCOMPARE(indexPattern("encoder_layer_5"), std::string("encoder_layer_#"));
        QCOMPARE(indexPattern("self_attn"), std::string("self_attn"));
    }
};

QTEST_APPLESS_MAIN(FoldTest)
#include "FoldTest.moc"
