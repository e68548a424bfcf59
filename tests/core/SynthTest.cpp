// The reference-model generator, checked through the file: every preset is written
// as ONNX, read back with the importer, and its parameter count, layer scopes and
// weight shapes are compared with the architecture's closed form.
#include "base/Error.h"
#include "graph/ParameterCount.h"
#include "graph/ScopeTree.h"
#include "onnx/OnnxExporter.h"
#include "onnx/OnnxImporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace tapestry;

namespace {

ModelSpec presetSpec(const char* name)
{
    const SynthPreset* preset = findSynthPreset(name);
    if (!preset)
        throw std::runtime_error(std::string("no preset ") + name);
    return preset->spec;
}

// Synthesizes, writes into a fresh temporary directory and imports the file again.
Graph roundTrip(const ModelSpec& spec, const std::string& name)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        throw std::runtime_error("no temporary directory");
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / (name + ".onnx");
    writeOnnxModel(synthesizeModel(spec, name), file);
    return importOnnxModel(file);
}

Graph roundTrip(const char* preset)
{
    return roundTrip(presetSpec(preset), preset);
}

std::vector<std::int64_t> weightDims(const Graph& graph, const std::string& name)
{
    const TensorId id = graph.findTensor(name);
    if (!id.isValid() || !graph.tensor(id).initializer.isValid())
        throw std::runtime_error("no initializer " + name);
    return graph.initializer(graph.tensor(id).initializer).dims;
}

const ScopeNode* scopeNamed(const ScopeTree& tree, const std::string& path)
{
    for (const ScopeNode& node : tree.nodes()) {
        if (node.path == path)
            return &node;
    }
    return nullptr;
}

// Children of `path` whose name starts with `prefix` ("h.", "experts.").
int childrenNamed(const ScopeTree& tree, const std::string& path, const std::string& prefix)
{
    const ScopeNode* node = scopeNamed(tree, path);
    if (!node)
        return -1;
    int count = 0;
    for (const ScopeNodeId child : node->children) {
        if (tree.node(child).name.rfind(prefix, 0) == 0)
            ++count;
    }
    return count;
}

// GPT-2/3 closed form: per layer 12h^2 + 13h (qkv and out projections with biases,
// fc and proj with biases, two LayerNorms); token and position tables; final LayerNorm;
// the LM head is the token table again.
std::uint64_t gptParameters(std::uint64_t layers, std::uint64_t h, std::uint64_t vocab, std::uint64_t positions)
{
    return vocab * h + positions * h + layers * (12 * h * h + 13 * h) + 2 * h;
}

void expectInvalid(const ModelSpec& spec, const char* why)
{
    try {
        (void)synthesizeModel(spec, "bad");
        QFAIL(why);
    } catch (const Error& error) {
        QCOMPARE(error.code(), ErrorCode::InvalidArgument);
    }
}

}  // namespace

class SynthTest : public QObject {
    Q_OBJECT

private slots:
    void gpt3_175bHas174_6BillionParametersAnd96Layers()
    {
        const Graph graph = roundTrip("gpt3-175b");
        const std::uint64_t expected = gptParameters(96, 12288, 50257, 2048);
        QCOMPARE(expected, std::uint64_t{174'604'259'328});
        QCOMPARE(countParameters(graph).parameters, expected);
        QVERIFY(std::abs(static_cast<double>(expected) / 174.6e9 - 1.0) < 0.01);
        QCOMPARE(childrenNamed(ScopeTree::build(graph), "transformer", "h."), 96);
        QCOMPARE(weightDims(graph, "transformer.h.95.attn.c_attn.weight"), (std::vector<std::int64_t>{12288, 36864}));
    }

    void writtenFileReadsBackAsAnExportWithoutShapeInference()
    {
        const ModelSpec spec = presetSpec("gpt2-small");
        const Graph original = synthesizeModel(spec, "gpt2-small");
        const Graph graph = roundTrip(spec, "gpt2-small");
        QCOMPARE(graph.info().producerName, std::string("tapestry-synth"));
        QCOMPARE(graph.info().irVersion, kWrittenIrVersion);
        QVERIFY(!graph.info().shapesInferred);
        QCOMPARE(graph.opCount(), original.opCount());
        for (std::size_t i = 0; i < graph.opCount(); ++i)
            QCOMPARE(graph.ops()[i].name, original.ops()[i].name);
        for (const Tensor& tensor : graph.tensors()) {
            QVERIFY2(tensor.dtype != DataType::Undefined && tensor.shape.isRankKnown(), tensor.name.c_str());
            QCOMPARE(tensor.shape, original.tensor(original.findTensor(tensor.name)).shape);
        }
        for (const Initializer& initializer : graph.initializers())
            QCOMPARE(initializer.location, DataLocation::External);
        const Tensor& ids = graph.tensor(graph.inputs()[0]);
        QCOMPARE(ids.shape, TensorShape({Dimension::symbolic("batch"), Dimension::symbolic("sequence")}));
    }

    void gpt2SmallHas124_4MillionParameters()
    {
        const Graph graph = roundTrip("gpt2-small");
        QCOMPARE(countParameters(graph).parameters, gptParameters(12, 768, 50257, 1024));
        QCOMPARE(countParameters(graph).parameters, std::uint64_t{124'439'808});
    }

    void llama2_70bMatchesTheGqaClosedForm()
    {
        const Graph graph = roundTrip("llama2-70b");
        const std::uint64_t h = 8192, heads = 64, kvHeads = 8, ffn = 28672, vocab = 32000, layers = 80;
        const std::uint64_t kv = kvHeads * (h / heads);  // 1024
        const std::uint64_t attention = 2 * h * h + 2 * h * kv;
        const std::uint64_t expected = vocab * h + layers * (attention + 3 * h * ffn + 2 * h) + h + h * vocab;
        QCOMPARE(expected, std::uint64_t{68'976'648'192});
        QCOMPARE(countParameters(graph).parameters, expected);
        QCOMPARE(weightDims(graph, "model.layers.0.self_attn.k_proj.weight"), (std::vector<std::int64_t>{8192, 1024}));
        QCOMPARE(weightDims(graph, "model.layers.79.mlp.down_proj.weight"), (std::vector<std::int64_t>{28672, 8192}));
        QCOMPARE(childrenNamed(ScopeTree::build(graph), "model", "layers."), 80);
    }

    // Decoders mask the future as their Hugging Face modules do (a Trilu above the
    // diagonal): the cost model reads causality from that mask, and fused attention then
    // computes half of the scores. Llama-style stems (Llama, mixtures of experts) had only
    // the padding mask, which priced their attention twice over.
    void decodersCarryTheCausalMask()
    {
        for (const char* preset : {"gpt2-small", "llama3-8b", "mixtral-8x7b"}) {
            ModelSpec spec = presetSpec(preset);
            spec.layers = 1;
            const Graph graph = synthesizeModel(spec, preset);
            int upperTriangles = 0;
            for (const Op& op : graph.ops()) {
                const Attribute* upper = op.type == "Trilu" ? op.findAttribute("upper") : nullptr;
                const auto* value = upper ? std::get_if<std::int64_t>(&upper->value) : nullptr;
                upperTriangles += value && *value == 1 ? 1 : 0;
            }
            QVERIFY2(upperTriangles == 1, preset);
        }
    }

    void opNamesCarryTheModulePathAsTorchScriptDoes()
    {
        const Graph graph = roundTrip("llama2-7b");
        const Op* qProj = nullptr;
        for (const Op& op : graph.ops()) {
            if (op.name == "/model/layers.0/self_attn/q_proj/MatMul")
                qProj = &op;
        }
        QVERIFY(qProj);
        QCOMPARE(qProj->scope.toModulePath(), std::string("model.layers.0.self_attn.q_proj"));
        QCOMPARE(graph.tensor(qProj->inputs[1]).name, std::string("model.layers.0.self_attn.q_proj.weight"));
    }

    void bertBaseHas109_5MillionParameters()
    {
        const Graph graph = roundTrip("bert-base");
        const std::uint64_t h = 768, ffn = 3072;
        const std::uint64_t embeddings = (30522 + 512 + 2) * h + 2 * h;
        const std::uint64_t layer = 4 * (h * h + h) + 2 * h * ffn + ffn + h + 4 * h;
        const std::uint64_t pooler = h * h + h;
        QCOMPARE(countParameters(graph).parameters, embeddings + 12 * layer + pooler);
        QCOMPARE(countParameters(graph).parameters, std::uint64_t{109'482'240});
        QCOMPARE(childrenNamed(ScopeTree::build(graph), "bert/encoder", "layer."), 12);
    }

    void vitBaseHas86_6MillionParameters()
    {
        const Graph graph = roundTrip("vit-base");
        const std::uint64_t h = 768, ffn = 3072, patches = 196;
        const std::uint64_t embeddings = h * 3 * 16 * 16 + h + h + (patches + 1) * h;
        const std::uint64_t layer = 4 * (h * h + h) + 2 * h * ffn + ffn + h + 4 * h;
        QCOMPARE(countParameters(graph).parameters, embeddings + 12 * layer + 2 * h + 1000 * h + 1000);
    }

    void resnet50Has25_56MillionLearnedParameters()
    {
        const Graph graph = roundTrip("resnet50");
        // Bottleneck widths w = 64, 128, 256, 512 with 3, 4, 6, 3 blocks; the first block
        // of each stage has a 1x1 downsample conv to 4w.
        const std::uint64_t blocks[] = {3, 4, 6, 3};
        std::uint64_t convs = 64 * 3 * 7 * 7;
        std::uint64_t bnChannels = 64;
        std::uint64_t in = 64;
        for (int stage = 0; stage < 4; ++stage) {
            const std::uint64_t w = 64u << stage;
            for (std::uint64_t b = 0; b < blocks[stage]; ++b) {
                convs += in * w + w * w * 9 + w * 4 * w;
                bnChannels += 6 * w;
                if (b == 0) {
                    convs += in * 4 * w;
                    bnChannels += 4 * w;
                }
                in = 4 * w;
            }
        }
        const std::uint64_t learned = convs + 2 * bnChannels + 2048 * 1000 + 1000;
        QCOMPARE(learned, std::uint64_t{25'557'032});
        // running_mean and running_var are written, as in a real export, but are not parameters.
        QCOMPARE(countParameters(graph).parameters, learned);
        QCOMPARE(weightDims(graph, "layer4.2.bn3.running_var"), (std::vector<std::int64_t>{2048}));
        const ScopeTree tree = ScopeTree::build(graph);
        QCOMPARE(childrenNamed(tree, "layer3", "layer3."), 6);
        QVERIFY(scopeNamed(tree, "layer4/layer4.0/downsample/downsample.0"));
        QVERIFY(!scopeNamed(tree, "layer4/layer4.1/downsample"));
    }

    void t5HasSeparateEncoderAndDecoderStacks()
    {
        const Graph graph = roundTrip("t5-base");
        const ScopeTree tree = ScopeTree::build(graph);
        QCOMPARE(childrenNamed(tree, "encoder", "block."), 12);
        QCOMPARE(childrenNamed(tree, "decoder", "block."), 12);
        QVERIFY(scopeNamed(tree, "decoder/block.11/layer.1/EncDecAttention/k"));
        QVERIFY(!scopeNamed(tree, "encoder/block.0/layer.1/EncDecAttention"));
        const std::uint64_t h = 768, ffn = 3072, buckets = 32, heads = 12;
        const std::uint64_t encoderBlock = 4 * h * h + 2 * h * ffn + 2 * h;
        const std::uint64_t decoderBlock = 8 * h * h + 2 * h * ffn + 3 * h;
        const std::uint64_t expected =
            32128 * h + 12 * encoderBlock + 12 * decoderBlock + 2 * buckets * heads + 2 * h;
        QCOMPARE(countParameters(graph).parameters, expected);
        QCOMPARE(expected, std::uint64_t{222'903'552});

        ModelSpec shallowDecoder = presetSpec("t5-small");
        shallowDecoder.decoderLayers = 2;
        const ScopeTree small = ScopeTree::build(roundTrip(shallowDecoder, "t5-small-2"));
        QCOMPARE(childrenNamed(small, "encoder", "block."), 6);
        QCOMPARE(childrenNamed(small, "decoder", "block."), 2);
    }

    void moeLayersHaveOneScopePerExpert()
    {
        const Graph graph = roundTrip("mixtral-8x7b");
        const ScopeTree tree = ScopeTree::build(graph);
        QCOMPARE(childrenNamed(tree, "model/layers.0/block_sparse_moe", "experts."), 8);
        QCOMPARE(childrenNamed(tree, "model/layers.31/block_sparse_moe", "experts."), 8);
        QCOMPARE(weightDims(graph, "model.layers.0.block_sparse_moe.experts.7.w2.weight"),
                 (std::vector<std::int64_t>{14336, 4096}));
        const std::uint64_t h = 4096, ffn = 14336, vocab = 32000, experts = 8;
        const std::uint64_t layer = 2 * h * h + 2 * h * 1024 + h * experts + experts * 3 * h * ffn + 2 * h;
        QCOMPARE(countParameters(graph).parameters, 2 * vocab * h + 32 * layer + h);

        ModelSpec four = presetSpec("mixtral-8x7b");
        four.layers = 2;
        four.experts = 4;
        const ScopeTree small = ScopeTree::build(roundTrip(four, "moe-4"));
        QCOMPARE(childrenNamed(small, "model/layers.1/block_sparse_moe", "experts."), 4);
    }

    void sizeOverridesChangeTheCountAsTheClosedFormSays()
    {
        ModelSpec spec = presetSpec("gpt2-small");
        spec.layers = 3;
        spec.hidden = 256;
        spec.heads = spec.kvHeads = 4;
        spec.ffn = 4 * 256;
        const Graph graph = roundTrip(spec, "gpt-tiny");
        QCOMPARE(countParameters(graph).parameters, gptParameters(3, 256, 50257, 1024));
        QCOMPARE(childrenNamed(ScopeTree::build(graph), "transformer", "h."), 3);
    }

    void badSpecsAreRejected()
    {
        ModelSpec spec = presetSpec("gpt2-small");
        spec.heads = 7;
        expectInvalid(spec, "768 is not divisible by 7 heads");
        spec = presetSpec("llama2-70b");
        spec.kvHeads = 6;
        expectInvalid(spec, "64 heads cannot be shared by 6 KV heads");
        spec = presetSpec("mixtral-8x7b");
        spec.topK = 9;
        expectInvalid(spec, "top-k above the expert count");
        spec = presetSpec("bert-base");
        spec.layers = 0;
        expectInvalid(spec, "no layers");
        spec = presetSpec("resnet50");
        spec.imageSize = 100;
        expectInvalid(spec, "100 px is not divisible by ResNet's stride 32");
    }

    void writingIntoAMissingDirectoryFailsWithoutLeftovers()
    {
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        const std::filesystem::path file = root / "missing" / "model.onnx";
        try {
            writeOnnxModel(synthesizeModel(presetSpec("gpt2-small"), "gpt2-small"), file);
            QFAIL("expected WriteFailed");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::WriteFailed);
            QCOMPARE(error.file(), file.string());
        }
        writeOnnxModel(synthesizeModel(presetSpec("resnet50"), "resnet50"), root / "resnet50.onnx");
        int entries = 0;
        for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(root))
            ++entries;
        QCOMPARE(entries, 1);  // the model only: no temp file, no weights file
    }
};

QTEST_APPLESS_MAIN(SynthTest)
#include "SynthTest.moc"
