// Bad input: every case yields a tapestry::Error with the right code whose text names
// the file; nothing crashes. Broken models are written byte by byte with a tiny
// protobuf encoder, so each case shows exactly what is wrong with it.
#include "base/Error.h"
#include "onnx/OnnxImporter.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tapestry;

namespace {

// Minimal protobuf wire-format encoder for hand-made ONNX messages.
class Proto {
public:
    Proto& varint(int field, std::uint64_t value)
    {
        tag(field, 0);
        raw(value);
        return *this;
    }
    Proto& bytes(int field, const std::string& payload)
    {
        tag(field, 2);
        raw(payload.size());
        out_ += payload;
        return *this;
    }
    Proto& message(int field, const Proto& nested) { return bytes(field, nested.out_); }
    [[nodiscard]] const std::string& str() const { return out_; }

private:
    void tag(int field, int wireType) { raw(static_cast<std::uint64_t>(field) << 3 | static_cast<std::uint64_t>(wireType)); }
    void raw(std::uint64_t value)
    {
        do {
            std::uint8_t byte = value & 0x7f;
            value >>= 7;
            out_ += static_cast<char>(value ? byte | 0x80 : byte);
        } while (value);
    }
    std::string out_;
};

// TypeProto{tensor_type{elem_type FLOAT, shape{dims}}}; no shape when `dims` is empty
// and `ranked` is false.
Proto floatType(const std::vector<std::int64_t>& dims, bool ranked = true)
{
    Proto tensorType;
    tensorType.varint(1, 1);
    if (ranked) {
        Proto shape;
        for (const std::int64_t d : dims)
            shape.message(1, Proto().varint(1, static_cast<std::uint64_t>(d)));
        tensorType.message(2, shape);
    }
    return Proto().message(1, tensorType);
}

Proto valueInfo(const std::string& name, const Proto& type)
{
    return Proto().bytes(1, name).message(2, type);
}

Proto node(const std::string& type, const std::string& name, const std::vector<std::string>& inputs,
           const std::vector<std::string>& outputs)
{
    Proto n;
    for (const std::string& input : inputs)
        n.bytes(1, input);
    for (const std::string& output : outputs)
        n.bytes(2, output);
    return n.bytes(3, name).bytes(4, type);
}

// An external-data float initializer: dims, data_type, name, data_location EXTERNAL.
Proto externalWeight(const std::string& name, const std::vector<std::int64_t>& dims, int dataType = 1)
{
    Proto t;
    for (const std::int64_t d : dims)
        t.varint(1, static_cast<std::uint64_t>(d));
    t.varint(2, static_cast<std::uint64_t>(dataType)).bytes(8, name);
    t.message(13, Proto().bytes(1, "location").bytes(2, "weights.bin"));
    return t.varint(14, 1);
}

// AttributeProto{name, i, type INT}.
Proto intAttribute(const std::string& name, std::int64_t value)
{
    return Proto().bytes(1, name).varint(3, static_cast<std::uint64_t>(value)).varint(20, 2);
}

// AttributeProto{name, ints, type INTS}.
Proto intsAttribute(const std::string& name, const std::vector<std::int64_t>& values)
{
    Proto a = Proto().bytes(1, name);
    for (const std::int64_t v : values)
        a.varint(8, static_cast<std::uint64_t>(v));
    return a.varint(20, 7);
}

// y = OP(x, w) with every shape given, so that no inference runs and the file's own
// shapes are what the importer checks.
Proto shapedGraph(const Proto& op, const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& w,
                  const std::vector<std::int64_t>& y, int weightType = 1)
{
    return Proto()
        .message(1, op)
        .bytes(2, "g")
        .message(5, externalWeight("w", w, weightType))
        .message(11, valueInfo("x", floatType(x)))
        .message(12, valueInfo("y", floatType(y)));
}

// A Constant node whose value is an int64 tensor of `dims` holding `values`.
Proto constantNode(const std::string& output, const std::vector<std::int64_t>& dims,
                   const std::vector<std::int64_t>& values)
{
    Proto tensor;
    for (const std::int64_t d : dims)
        tensor.varint(1, static_cast<std::uint64_t>(d));
    tensor.varint(2, 7);
    for (const std::int64_t v : values)
        tensor.varint(7, static_cast<std::uint64_t>(v));
    const Proto value = Proto().bytes(1, "value").message(5, tensor).varint(20, 4);
    return node("Constant", output, {}, {output}).message(5, value);
}

std::string model(const Proto& graph, std::uint64_t irVersion = 8)
{
    return Proto().varint(1, irVersion).bytes(2, "handmade").message(7, graph).message(8, Proto().varint(2, 17)).str();
}

}  // namespace

class OnnxImportErrorsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::string write(const char* name, const std::string& bytes)
    {
        const std::string path = dir_.filePath(QString::fromUtf8(name)).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

    static std::string readFile(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    // Imports `path`, expecting an error with `code` whose text names the file.
    static void expectError(const std::string& path, ErrorCode code, const char* phrase)
    {
        try {
            (void)importOnnxModel(path);
        } catch (const Error& error) {
            const std::string text = error.what();
            QVERIFY2(error.code() == code, (std::string("got ") + errorCodeName(error.code()) + ": " + text).c_str());
            QCOMPARE(error.file(), path);
            QVERIFY2(text.find(path) != std::string::npos, text.c_str());
            QVERIFY2(text.find(phrase) != std::string::npos, text.c_str());
            return;
        }
        QFAIL(("no error for " + path).c_str());
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void missingFile() { expectError(dir_.filePath(QStringLiteral("absent.onnx")).toStdString(), ErrorCode::FileNotFound, "no such file"); }

    void directory() { expectError(dir_.path().toStdString(), ErrorCode::NotARegularFile, "is a directory"); }

    void emptyFile() { expectError(write("empty.onnx", {}), ErrorCode::EmptyFile, "is empty"); }

    void textFile()
    {
        expectError(write("notes.onnx", "these are release notes, not a model\n"), ErrorCode::NotOnnx, "not an ONNX model");
    }

    void truncatedRealModel()
    {
        const std::string whole = readFile(std::string(TAPESTRY_TEST_DATA_DIR) + "/llama.ts.stripped.onnx");
        QVERIFY(whole.size() > 1000);
        expectError(write("half.onnx", whole.substr(0, whole.size() / 2)), ErrorCode::TruncatedFile, "truncated");
    }

    void unsupportedIrVersion()
    {
        std::string bytes = readFile(std::string(TAPESTRY_TEST_DATA_DIR) + "/llama.ts.stripped.onnx");
        // The file starts with field 1 (ir_version) as a one-byte varint: 0x08 0x08.
        QCOMPARE(bytes.substr(0, 2), std::string("\x08\x08", 2));
        bytes[1] = 99;
        expectError(write("future.onnx", bytes), ErrorCode::UnsupportedIrVersion, "IR version 99");
    }

    void handmadeValidModelImports()
    {
        const Proto graph = Proto()
                                .message(1, node("MatMul", "mm", {"x", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {4, 3}))
                                .message(11, valueInfo("x", floatType({2, 4})))
                                .message(12, valueInfo("y", floatType({}, false)));
        const Graph g = importOnnxModel(write("ok.onnx", model(graph)));
        QCOMPARE(g.opCount(), std::size_t{1});
        QVERIFY(g.info().shapesInferred);  // y had no shape in the file
        QCOMPARE(g.tensor(g.findTensor("y")).shape.toString(), std::string("[2, 3]"));
    }

    void matMulWhoseShapeCannotBeInferredIsOpenedUnpriced()
    {
        // x has no shape at all, so neither has y: the model opens, and says which op a
        // planner cannot price.
        const Proto graph = Proto()
                                .message(1, node("Relu", "relu", {"y"}, {"z"}))
                                .message(1, node("MatMul", "mm", {"x", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {4, 3}))
                                .message(11, valueInfo("x", floatType({}, false)))
                                .message(12, valueInfo("z", floatType({}, false)));
        const Graph g = importOnnxModel(write("shapeless.onnx", model(graph)));
        QCOMPARE(g.opCount(), std::size_t{2});
        QCOMPARE(g.info().unsizedOps, std::vector<std::string>{"mm"});
    }

    void reshapeToAComputedShapeIsSized()
    {
        // r = Reshape(x [2, 6], Concat([-1], Unsqueeze(Mod(14, 4)))) = [6, 2]: ONNX's own
        // data propagation does not evaluate Mod, so it left r (and the MatMul) unsized.
        const Proto graph = Proto()
                                .message(1, constantNode("fourteen", {}, {14}))
                                .message(1, constantNode("four", {}, {4}))
                                .message(1, constantNode("minus_one", {1}, {-1}))
                                .message(1, constantNode("axes", {1}, {0}))
                                .message(1, node("Mod", "mod", {"fourteen", "four"}, {"two"}))
                                .message(1, node("Unsqueeze", "unsqueeze", {"two", "axes"}, {"two_1d"}))
                                .message(1, node("Concat", "concat", {"minus_one", "two_1d"}, {"shape"})
                                                .message(5, intAttribute("axis", 0)))
                                .message(1, node("Reshape", "reshape", {"x", "shape"}, {"r"}))
                                .message(1, node("MatMul", "mm", {"r", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {2, 3}))
                                .message(11, valueInfo("x", floatType({2, 6})))
                                .message(12, valueInfo("y", floatType({}, false)));
        const Graph g = importOnnxModel(write("computed_shape.onnx", model(graph)));
        QCOMPARE(g.info().unsizedOps, std::vector<std::string>{});
        QCOMPARE(g.tensor(g.findTensor("r")).shape.toString(), std::string("[6, 2]"));
        QCOMPARE(g.tensor(g.findTensor("y")).shape.toString(), std::string("[6, 3]"));
        // The evaluated shape tensors stay ops of the graph: nothing was replaced.
        QCOMPARE(g.opCount(), std::size_t{9});
        QCOMPARE(g.initializers().size(), std::size_t{1});
    }

    void impossibleModelsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("phrase");
        const Proto matMul = node("MatMul", "mm", {"x", "w"}, {"y"});
        auto row = [](const char* name, const Proto& graph, const char* phrase) {
            QTest::newRow(name) << QByteArray::fromStdString(model(graph)) << QString::fromUtf8(phrase);
        };
        // It reported 4.6e18 parameters and 0 B.
        row("2^31 x 2^31 weight", shapedGraph(matMul, {2, 2147483648}, {2147483648, 2147483648}, {2, 2147483648}),
            "initializer 'w' is impossibly large");
        row("inner dims 8 and 9", shapedGraph(matMul, {4, 8}, {9, 16}, {4, 16}),
            "op 'mm' (MatMul) multiplies [4, 8] by [9, 16]: the inner dimensions 8 and 9 differ");
        row("negative dim", shapedGraph(matMul, {-2, 4}, {4, 3}, {-2, 3}), "tensor 'x' has a negative dimension (-2)");
        row("negative weight dim", shapedGraph(matMul, {2, 4}, {4, -3}, {2, 3}),
            "initializer 'w' has a negative dimension (-3)");
        row("zero dim", shapedGraph(matMul, {0, 4}, {4, 3}, {0, 3}), "with an empty dimension");
        row("rank-0 MatMul", shapedGraph(matMul, {}, {4, 3}, {3}), "has a scalar (rank 0) operand");
        row("unknown dtype", shapedGraph(matMul, {2, 4}, {4, 3}, {2, 3}, 12345),
            "initializer 'w' has the element type 12345, which ONNX does not define");
        const Proto conv = node("Conv", "conv", {"x", "w"}, {"y"});
        row("Conv group 0", shapedGraph(Proto(conv).message(5, intAttribute("group", 0)), {1, 4, 8, 8}, {8, 4, 3, 3},
                                        {1, 8, 6, 6}),
            "op 'conv' (Conv) has group = 0");
        row("Conv stride 0", shapedGraph(Proto(conv).message(5, intsAttribute("strides", {0, 1})), {1, 4, 8, 8},
                                         {8, 4, 3, 3}, {1, 8, 6, 6}),
            "has strides containing 0");
        row("Conv channels", shapedGraph(conv, {1, 5, 8, 8}, {8, 4, 3, 3}, {1, 8, 6, 6}),
            "convolves 5 input channels");
        row("Gemm transA 7", shapedGraph(node("Gemm", "gemm", {"x", "w"}, {"y"}).message(5, intAttribute("transA", 7)),
                                         {4, 8}, {8, 16}, {4, 16}),
            "op 'gemm' (Gemm) has transA = 7");
        // Its name went into a plan file that could not be read back.
        row("node name not UTF-8", shapedGraph(node("MatMul", "mm\xff\xfe", {"x", "w"}, {"y"}), {2, 4}, {4, 3}, {2, 3}),
            "the name of node 0 is not valid UTF-8 (byte 2 of \"mm...\")");
        // Past the first eight bytes, which are read as one ASCII word.
        row("long node name not UTF-8",
            shapedGraph(node("MatMul", "/model/layers.0/mlp/fc\xe2\x28\xa1", {"x", "w"}, {"y"}), {2, 4}, {4, 3}, {2, 3}),
            "the name of node 0 is not valid UTF-8 (byte 22 of \"/model/layers.0/mlp/fc...\")");
        row("tensor name not UTF-8",
            shapedGraph(node("MatMul", "mm", {"x", "w"}, {"y\xc0\x80"}), {2, 4}, {4, 3}, {2, 3}),
            "an output name is not valid UTF-8");
    }

    void impossibleModelsAreRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, phrase);
        expectError(write("impossible.onnx", bytes.toStdString()), ErrorCode::InvalidModel, phrase.toUtf8().constData());
    }

    void contradictoryShapesFailInference()
    {
        // value_info claims r has rank 3, but Relu of a [2, 4] input gives rank 2.
        const Proto graph = Proto()
                                .message(1, node("Relu", "relu", {"x"}, {"r"}))
                                .message(1, node("MatMul", "mm", {"r", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {4, 3}))
                                .message(11, valueInfo("x", floatType({2, 4})))
                                .message(12, valueInfo("y", floatType({}, false)))
                                .message(13, valueInfo("r", floatType({2, 4, 1})));
        expectError(write("contradiction.onnx", model(graph)), ErrorCode::ShapeInferenceFailed, "shape inference");
    }

    void undefinedTensorIsInvalidModel()
    {
        const Proto graph = Proto()
                                .message(1, node("MatMul", "mm", {"ghost", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {4, 3}))
                                .message(12, valueInfo("y", floatType({2, 3})));
        expectError(write("ghost.onnx", model(graph)), ErrorCode::InvalidModel, "'ghost'");
    }

    void undefinedInputOfShapeComputationIsRefusedBeforeInference()
    {
        // ONNX inference crashed (SIGSEGV in libonnx) on a Shape whose input no node
        // defines, as in a MiniLM export with a renamed tensor.
        const Proto graph = Proto()
                                .message(1, node("Shape", "shape", {"renamed"}, {"n"}))
                                .message(1, node("Reshape", "reshape", {"x", "n"}, {"r"}))
                                .message(1, node("MatMul", "mm", {"r", "w"}, {"y"}))
                                .bytes(2, "g")
                                .message(5, externalWeight("w", {4, 3}))
                                .message(11, valueInfo("x", floatType({2, 4})))
                                .message(12, valueInfo("y", floatType({}, false)));
        expectError(write("renamed.onnx", model(graph)), ErrorCode::InvalidModel,
                    "node 'shape' (Shape) reads tensor 'renamed', which no node, input or initializer");
    }

    void modelWithoutGraph()
    {
        expectError(write("nograph.onnx", Proto().varint(1, 8).bytes(2, "x").str()), ErrorCode::InvalidModel,
                    "without a graph");
    }
};

QTEST_GUILESS_MAIN(OnnxImportErrorsTest)
#include "OnnxImportErrorsTest.moc"
