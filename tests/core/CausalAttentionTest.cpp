// Causal attention found from a constant mask's values (CausalAttention.h, MaskValues.h):
// small attention graphs written as ONNX files with their masks inline and read back,
// each mask causal, not causal or an input; the exporters' own files in tests/data; and
// the bundled default model (a dynamo export with its causal mask folded to a constant)
// priced as the synthesized Llama-3-8B.
#include "FoldedTestModel.h"
#include "TestInitializer.h"
#include "cost/CausalAttention.h"
#include "cost/CostModel.h"
#include "graph/GraphBuilder.h"
#include "graph/MaskValues.h"
#include "onnx/OnnxExporter.h"
#include "plan/ExpertPlans.h"

#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace tapestry;
using namespace tapestry::test;

namespace {

constexpr std::int64_t kTraced = 4;  // the tokens the masks were traced at

template <typename T>
std::vector<std::byte> bytesOf(const std::vector<T>& values)
{
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// A rows x columns matrix of `visible` where key j is visible to query i, else `hidden`.
template <typename T>
std::vector<T> pattern(std::int64_t rows, std::int64_t columns, T visible, T hidden, auto visibleAt)
{
    std::vector<T> values;
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < columns; ++j)
            values.push_back(visibleAt(i, j) ? visible : hidden);
    return values;
}

const auto causal = [](std::int64_t i, std::int64_t j) { return j <= i; };

Initializer int64s(const char* name, const std::vector<std::int64_t>& values)
{
    return testInitializer(name, DataType::Int64, {static_cast<std::int64_t>(values.size())}, bytesOf(values));
}

Initializer scalar(const char* name, float value)
{
    return testInitializer(name, DataType::Float32, {}, bytesOf(std::vector<float>{value}));
}

// How the mask reaches the scores.
enum class Mask : std::uint8_t {
    KeepAndPadding,  // dynamo: a bool causal constant And the padding mask, Where(., 0, -inf), added
    SlicedBias,      // a float causal bias of the longest positions, sliced to the sequence, added
    HideFill,        // masked_fill: Where(true above the diagonal, -inf, scores)
    ShiftedSlice,    // the bias sliced from row 1, column 0: the diagonal moves, a future key shows
    SlidingWindow,   // a bool constant keeping the last 2 keys only at most: not causal
    AntiCausal,      // a bool constant true on and above the diagonal: keys after the query
    HideAsKeep,      // the hide pattern used as a keep mask: Where(hide, 0, -inf)
    Input,           // the mask is the graph's input: its values are unknown
};

// Attention's core on [batch, 2 heads, seq, 4] (queries projected by a 4 x 4 weight so that
// gradients flow): QKᵀ, the mask, softmax over the keys, x V; written to `file` with its
// constants inline, as an exporter writes a folded mask, and read back.
Graph maskedAttention(Mask mask, const std::string& file)
{
    GraphBuilder b;
    const Dimension seq = Dimension::symbolic("seq");
    const Dimension four = Dimension::known(4);
    const auto shape = [](Dimension heads, Dimension third, Dimension fourth) {
        return TensorShape({Dimension::symbolic("batch"), heads, third, fourth});
    };
    const Dimension two = Dimension::known(2);
    b.addInput("x", DataType::Float32, shape(two, seq, four));
    b.addInput("kt", DataType::Float32, shape(two, four, seq));
    b.addInput("v", DataType::Float32, shape(two, seq, four));
    b.addInitializer(testInitializer("wq", DataType::Float32, {4, 4}, bytesOf(std::vector<float>(16, 0.5F))));
    b.addOp("MatMul", "query", {"x", "wq"}, {"q"});
    b.addOp("MatMul", "scores", {"q", "kt"}, {"s"});
    b.setTensorType("q", DataType::Float32, shape(two, seq, four));
    b.setTensorType("s", DataType::Float32, shape(two, seq, seq));
    const TensorShape scores = shape(two, seq, seq);
    const TensorShape square({Dimension::known(1), Dimension::known(1), Dimension::known(kTraced),
                              Dimension::known(kTraced)});
    const auto boolMask = [&](const char* name, auto visibleAt) {
        b.addInitializer(testInitializer(name, DataType::Bool, {1, 1, kTraced, kTraced},
                                  bytesOf(pattern<std::uint8_t>(kTraced, kTraced, 1, 0, visibleAt))));
    };
    b.addInitializer(scalar("zero", 0.0F));
    b.addInitializer(scalar("lowest", -std::numeric_limits<float>::infinity()));
    std::string masked = "masked";
    switch (mask) {
    case Mask::KeepAndPadding:
    case Mask::SlidingWindow:
    case Mask::AntiCausal:
        if (mask == Mask::KeepAndPadding)
            boolMask("tril", causal);
        else if (mask == Mask::SlidingWindow)
            boolMask("tril", [](std::int64_t i, std::int64_t j) { return j <= i && i - j < 2; });
        else
            boolMask("tril", [](std::int64_t i, std::int64_t j) { return j >= i; });
        b.addInput("padding", DataType::Bool, TensorShape({Dimension::symbolic("batch"), Dimension::known(1),
                                                           Dimension::known(1), seq}));
        b.addOp("And", "and", {"tril", "padding"}, {"keep"});
        b.addOp("Where", "where", {"keep", "zero", "lowest"}, {"bias"});
        b.addOp("Add", "add", {"s", "bias"}, {masked});
        break;
    case Mask::HideAsKeep:
        boolMask("tril", causal);
        b.addOp("Not", "not", {"tril"}, {"hide"});
        b.addOp("Where", "where", {"hide", "zero", "lowest"}, {"bias"});
        b.addOp("Add", "add", {"s", "bias"}, {masked});
        break;
    case Mask::HideFill:
        boolMask("tril", causal);
        b.addOp("Not", "not", {"tril"}, {"hide"});
        b.addOp("Where", "fill", {"hide", "lowest", "s"}, {masked});
        break;
    case Mask::SlicedBias:
    case Mask::ShiftedSlice: {
        // Hugging Face's older buffers: the longest positions' matrix, cut to the sequence.
        constexpr std::int64_t longest = 8;
        b.addInitializer(testInitializer("causal_bias", DataType::Float32, {1, 1, longest, longest},
                                  bytesOf(pattern<float>(longest, longest, 0.0F, -1e9F, causal))));
        b.addInitializer(int64s("starts", mask == Mask::SlicedBias ? std::vector<std::int64_t>{0, 0}
                                                                   : std::vector<std::int64_t>{1, 0}));
        b.addInitializer(int64s("ends", mask == Mask::SlicedBias ? std::vector<std::int64_t>{kTraced, kTraced}
                                                                 : std::vector<std::int64_t>{1 + kTraced, kTraced}));
        b.addInitializer(int64s("axes", {2, 3}));
        b.addOp("Slice", "cut", {"causal_bias", "starts", "ends", "axes"}, {"bias"});
        b.setTensorType("bias", DataType::Float32, square);
        b.addOp("Add", "add", {"s", "bias"}, {masked});
        break;
    }
    case Mask::Input:
        b.addInput("mask", DataType::Float32, TensorShape({Dimension::known(1), Dimension::known(1), seq, seq}));
        b.addOp("Add", "add", {"s", "mask"}, {masked});
        break;
    }
    b.setTensorType(masked, DataType::Float32, scores);
    b.addOp("Softmax", "softmax", {masked}, {"p"}, {{"axis", std::int64_t{-1}}});
    b.setTensorType("p", DataType::Float32, scores);
    b.addOp("MatMul", "context", {"p", "v"}, {"o"});
    b.setTensorType("o", DataType::Float32, shape(two, seq, four));
    b.markOutput("o");
    writeOnnxModel(b.finish(), file);
    return importOnnxModel(file);
}

bool causalWhenPriced(const Graph& graph)
{
    const FoldedModel m = foldModel(graph);
    const Cluster cluster = testCluster("dgx-h100x1");
    const DeviceMesh mesh({{"dp", 8}}, cluster);
    return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, workload(16, 2048)).causalAttention();
}

// Compute of the batched matmuls (attention's core, FlashAttention-2) of a data-parallel plan.
double attentionSeconds(const FoldedModel& m, const Cluster& cluster, const DeviceMesh& mesh, const Workload& w)
{
    const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
    const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
    double seconds = 0;
    for (const CoarseNode& node : m.coarse.nodes) {
        if (node.kind == CoarseNodeKind::BatchedMatMul)
            seconds += e.perNode[node.id.index()].time.computeSeconds;
    }
    return seconds;
}

}  // namespace

class CausalAttentionTest : public QObject {
    Q_OBJECT

private slots:
    void maskValuesReadTheTriangle()
    {
        const std::vector<std::int64_t> square{1, 1, 3, 3};
        const auto bools = [](auto visibleAt) { return bytesOf(pattern<std::uint8_t>(3, 3, 1, 0, visibleAt)); };
        QCOMPARE(maskValuesOf(DataType::Bool, square, bools(causal)), MaskValues::CausalKeep);
        QCOMPARE(maskValuesOf(DataType::Bool, square, bools([](auto i, auto j) { return j > i; })),
                 MaskValues::CausalHide);
        // On and above the diagonal: anti-causal as a keep mask; as a hide mask, the first
        // query would see no key. Not causal either way.
        QCOMPARE(maskValuesOf(DataType::Bool, square, bools([](auto i, auto j) { return j >= i; })),
                 MaskValues::Unknown);
        // Integers of 0 and 1 read as booleans; a wider matrix keeps j <= i (top-left).
        QCOMPARE(maskValuesOf(DataType::Int64, std::vector<std::int64_t>{2, 3},
                              bytesOf(pattern<std::int64_t>(2, 3, 1, 0, causal))),
                 MaskValues::CausalKeep);
        // Additive masks: 0 below, the type's lowest, -inf or -10,000 above; -9,999 does not mask.
        QCOMPARE(maskValuesOf(DataType::Float32, square,
                              bytesOf(pattern<float>(3, 3, 0.0F, std::numeric_limits<float>::lowest(), causal))),
                 MaskValues::CausalBias);
        QCOMPARE(maskValuesOf(DataType::Float32, square, bytesOf(pattern<float>(3, 3, 0.0F, -10000.0F, causal))),
                 MaskValues::CausalBias);
        QCOMPARE(maskValuesOf(DataType::Float32, square, bytesOf(pattern<float>(3, 3, 0.0F, -9999.0F, causal))),
                 MaskValues::Unknown);
        // bf16 and fp16 bits: 0x0000 is 0; 0xff80 (bf16) and 0xfc00 (fp16) are -inf; 0xfbff is
        // fp16's lowest, -65,504.
        QCOMPARE(maskValuesOf(DataType::BFloat16, square,
                              bytesOf(pattern<std::uint16_t>(3, 3, 0x0000, 0xff80, causal))),
                 MaskValues::CausalBias);
        QCOMPARE(maskValuesOf(DataType::Float16, square,
                              bytesOf(pattern<std::uint16_t>(3, 3, 0x0000, 0xfbff, causal))),
                 MaskValues::CausalBias);
        QCOMPARE(maskValuesOf(DataType::Float16, std::vector<std::int64_t>{}, bytesOf(std::vector<std::uint16_t>{0xfc00})),
                 MaskValues::Masking);
        // A single row or column hides nothing; bytes that do not match the dims are unread.
        QCOMPARE(maskValuesOf(DataType::Bool, std::vector<std::int64_t>{1, 1, 3, 1},
                              bytesOf(std::vector<std::uint8_t>{1, 1, 1})),
                 MaskValues::Unknown);
        QCOMPARE(maskValuesOf(DataType::Bool, square, bytesOf(std::vector<std::uint8_t>{1, 0, 0})),
                 MaskValues::Unknown);
    }

    void constantMaskOnTheScoresMakesAttentionCausal_data()
    {
        QTest::addColumn<int>("mask");
        QTest::addColumn<bool>("causal");
        QTest::newRow("bool keep And padding, Where, Add") << static_cast<int>(Mask::KeepAndPadding) << true;
        QTest::newRow("float bias sliced to the sequence") << static_cast<int>(Mask::SlicedBias) << true;
        QTest::newRow("masked_fill of the hidden keys") << static_cast<int>(Mask::HideFill) << true;
        QTest::newRow("bias sliced off the diagonal") << static_cast<int>(Mask::ShiftedSlice) << false;
        QTest::newRow("sliding window") << static_cast<int>(Mask::SlidingWindow) << false;
        QTest::newRow("anti-causal") << static_cast<int>(Mask::AntiCausal) << false;
        QTest::newRow("hide pattern used to keep") << static_cast<int>(Mask::HideAsKeep) << false;
        QTest::newRow("mask as an input") << static_cast<int>(Mask::Input) << false;
    }

    void constantMaskOnTheScoresMakesAttentionCausal()
    {
        QFETCH(int, mask);
        QFETCH(bool, causal);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Graph graph = maskedAttention(static_cast<Mask>(mask), dir.filePath(QStringLiteral("m.onnx")).toStdString());
        QCOMPARE(causalWhenPriced(graph), causal);
    }

    void exportersMasksReadFromTheirValues()
    {
        // Dynamo's Llama exports fold the causal mask to a [1, 1, 16, 16] bool constant;
        // its BERT export folds the padding mask to a [1, 1, 16, 1] one (bidirectional).
        QVERIFY(causalWhenPriced(importOnnxModel(testDataFile("llama.dynamo.stripped.onnx"))));
        QVERIFY(causalWhenPriced(importOnnxModel(testDataFile("llama3_8b_shape.dynamo.stripped.onnx"))));
        QVERIFY(!causalWhenPriced(importOnnxModel(testDataFile("bert.dynamo.stripped.onnx"))));
        // The TorchScript export builds its mask from position comparisons, as before.
        QVERIFY(causalWhenPriced(importOnnxModel(testDataFile("llama.ts.stripped.onnx"))));
    }

    void defaultModelsAttentionPricedAsTheSynthesizedPreset()
    {
        // The bundled model and the synthesized preset are one architecture (Llama-3-8B:
        // 32 layers of 32 query heads of 128, causal): the same 64 attention kernels, the
        // same flops (half of 4 b s^2 h d per layer, causal), keys and head dimension, so
        // the same seconds up to the order of summation.
        const FoldedModel exported = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const FoldedModel synthesized = foldSynthPreset("llama3-8b");
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const double a = attentionSeconds(exported, cluster, mesh, workload(16, 2048));
        const double b = attentionSeconds(synthesized, cluster, mesh, workload(16, 2048));
        QVERIFY2(std::abs(a / b - 1) < 1e-9, qPrintable(QString::number(a) + QStringLiteral(" vs ") + QString::number(b)));
    }
};

QTEST_GUILESS_MAIN(CausalAttentionTest)
#include "CausalAttentionTest.moc"
