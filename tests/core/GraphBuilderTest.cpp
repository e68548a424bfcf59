// Graph IR invariants on small inline graphs: name resolution, topological order,
// the errors GraphBuilder raises, scope paths, the scope tree and parameter counting.
#include "base/Error.h"
#include "graph/GraphBuilder.h"
#include "graph/ParameterCount.h"
#include "graph/ScopeTree.h"

#include <QTest>

using namespace tapestry;

namespace {

Initializer weight(std::string name, std::vector<std::int64_t> dims, DataType dtype = DataType::Float32)
{
    Initializer init;
    init.name = std::move(name);
    init.dtype = dtype;
    init.dims = std::move(dims);
    init.elementCount = 1;
    for (const std::int64_t d : init.dims)
        init.elementCount *= static_cast<std::uint64_t>(d);
    init.byteSize = init.elementCount * static_cast<std::uint64_t>(dataTypeBits(dtype)) / 8;
    return init;
}

std::vector<std::string> opNamesInOrder(const Graph& graph)
{
    std::vector<std::string> names;
    for (const OpId id : graph.topologicalOrder())
        names.push_back(graph.op(id).name);
    return names;
}

ErrorCode codeOf(GraphBuilder& builder)
{
    try {
        (void)builder.finish();
    } catch (const Error& error) {
        return error.code();
    }
    return ErrorCode::InvalidArgument;  // no error: never expected by these tests
}

}  // namespace

class GraphBuilderTest : public QObject {
    Q_OBJECT

private slots:
    void resolvesNamesIntoProducersAndConsumers()
    {
        GraphBuilder b;
        b.addInput("x", DataType::Float32, TensorShape({Dimension::symbolic("batch"), Dimension::known(8)}));
        b.addInitializer(weight("w", {8, 4}));
        b.addOp("MatMul", "mm", {"x", "w"}, {"y"});
        b.addOp("Relu", "relu", {"y"}, {"z"});
        b.markOutput("z");
        const Graph g = b.finish();

        QCOMPARE(g.opCount(), 2u);
        const Tensor& y = g.tensor(g.findTensor("y"));
        QCOMPARE(g.op(y.producer).name, std::string("mm"));
        QCOMPARE(y.consumers.size(), 1u);
        QCOMPARE(g.op(y.consumers.front()).name, std::string("relu"));
        QCOMPARE(g.tensor(g.findTensor("w")).role, TensorRole::Initializer);
        QCOMPARE(g.tensor(g.findTensor("w")).shape.toString(), std::string("[8, 4]"));
        QCOMPARE(g.tensor(g.findTensor("x")).shape.toString(), std::string("[batch, 8]"));
        QVERIFY(g.tensor(g.findTensor("z")).isGraphOutput);
        QVERIFY(!g.findTensor("nope").isValid());
    }

    void topologicalOrderPutsProducersFirstAndKeepsFileOrderOtherwise()
    {
        GraphBuilder b;
        b.addInput("x", DataType::Float32, {});
        b.addOp("Relu", "c", {"b_out"}, {"c_out"});  // listed before its producer
        b.addOp("Relu", "b", {"a_out"}, {"b_out"});
        b.addOp("Relu", "a", {"x"}, {"a_out"});
        b.addOp("Relu", "d", {"x"}, {"d_out"});
        const Graph g = b.finish();
        QCOMPARE(opNamesInOrder(g), (std::vector<std::string>{"a", "b", "c", "d"}));
    }

    void omittedOptionalInputIsAnInvalidId()
    {
        GraphBuilder b;
        b.addInput("x", DataType::Float32, {});
        b.addOp("Clip", "clip", {"x", "", "max"}, {"y"});
        b.addInitializer(weight("max", {}));
        const Graph g = b.finish();
        QCOMPARE(g.op(OpId{0u}).inputs.size(), 3u);
        QVERIFY(!g.op(OpId{0u}).inputs[1].isValid());
    }

    void rejectsCycles()
    {
        GraphBuilder b;
        b.addOp("Relu", "a", {"b_out"}, {"a_out"});
        b.addOp("Relu", "b", {"a_out"}, {"b_out"});
        QCOMPARE(codeOf(b), ErrorCode::InvalidModel);
    }

    void rejectsUndefinedTensor()
    {
        GraphBuilder b;
        b.addOp("Relu", "a", {"ghost"}, {"y"});
        try {
            (void)b.finish();
            QFAIL("a read of an undefined tensor must be an error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidModel);
            QVERIFY(std::string(error.what()).find("'ghost'") != std::string::npos);
        }
    }

    void subgraphsMayReadOuterScope()
    {
        GraphBuilder b({}, /*allowOuterScope=*/true);
        b.addOp("Relu", "a", {"outer"}, {"y"});
        const Graph g = b.finish();
        QCOMPARE(g.tensor(g.findTensor("outer")).role, TensorRole::OuterScope);
    }

    void rejectsSecondProducer()
    {
        GraphBuilder b;
        b.addInput("x", DataType::Float32, {});
        b.addOp("Relu", "a", {"x"}, {"y"});
        QVERIFY_THROWS_EXCEPTION(Error, b.addOp("Relu", "b", {"x"}, {"y"}));
    }

    void scopePathFromTorchScriptName()
    {
        const ScopePath p = ScopePath::fromTorchScriptNodeName("/model/layers.0/self_attn/q_proj/MatMul");
        QCOMPARE(p.components(), (std::vector<std::string>{"model", "layers.0", "self_attn", "q_proj"}));
        QCOMPARE(p.toModulePath(), std::string("model.layers.0.self_attn.q_proj"));
        QVERIFY(ScopePath::fromTorchScriptNodeName("MatMul_12").isEmpty());
        QVERIFY(ScopePath::fromTorchScriptNodeName("/Gather").isEmpty());
        // Empty parts are skipped; the last non-empty one is the op's.
        QCOMPARE(ScopePath::fromTorchScriptNodeName("//m//a/MatMul/").components(), (std::vector<std::string>{"m", "a"}));
        QVERIFY(ScopePath::fromTorchScriptNodeName("/").isEmpty());
    }

    void scopePathFromDynamoNameScopes()
    {
        std::vector<std::string> scopes;
        QVERIFY(parsePythonStringList(
            "['', 'model', 'model.layers.0', 'model.layers.0.self_attn', 'model.layers.0.self_attn.q_proj', 'linear']",
            scopes));
        QCOMPARE(scopes.size(), 6u);
        const ScopePath p = ScopePath::fromDynamoNameScopes(scopes);
        QCOMPARE(p.toString(), std::string("model/layers.0/self_attn/q_proj"));

        QVERIFY(parsePythonStringList("[]", scopes));
        QVERIFY(scopes.empty());
        QVERIFY(parsePythonStringList("[\"it's\", 'a\\'b']", scopes));
        QCOMPARE(scopes, (std::vector<std::string>{"it's", "a'b"}));
        QVERIFY(!parsePythonStringList("['unterminated", scopes));
        QVERIFY(!parsePythonStringList("model.layers.0", scopes));
    }

    void scopeTreeCountsOpsPerSubtree()
    {
        GraphBuilder b;
        b.addInput("x", DataType::Float32, {});
        b.addOp("Relu", "/m/a/Relu", {"x"}, {"t1"}, {}, ScopePath({"m", "a"}));
        b.addOp("Relu", "/m/a/Relu_1", {"t1"}, {"t2"}, {}, ScopePath({"m", "a"}));
        b.addOp("Relu", "/m/b/Relu", {"t2"}, {"t3"}, {}, ScopePath({"m", "b"}));
        b.addOp("Relu", "/m/Relu", {"t3"}, {"t4"}, {}, ScopePath({"m"}));
        // m/a again after m/b and m, then a scope below it: found, not made twice.
        b.addOp("Relu", "/m/a/Relu_2", {"t4"}, {"t5"}, {}, ScopePath({"m", "a"}));
        b.addOp("Relu", "/m/a/x/Relu", {"t5"}, {"t6"}, {}, ScopePath({"m", "a", "x"}));
        b.addOp("Relu", "loose", {"t6"}, {"t7"});
        const Graph g = b.finish();
        const ScopeTree tree = ScopeTree::build(g);

        const ScopeNode& root = tree.node(tree.root());
        QCOMPARE(root.totalOpCount, 7u);
        QCOMPARE(root.ops.size(), 1u);  // "loose" has no scope
        QCOMPARE(root.children.size(), 1u);
        const ScopeNode& m = tree.node(root.children.front());
        QCOMPARE(m.path, std::string("m"));
        QCOMPARE(m.totalOpCount, 6u);
        QCOMPARE(m.ops.size(), 1u);
        QCOMPARE(m.children.size(), 2u);
        const ScopeNode& a = tree.node(m.children[0]);
        QCOMPARE(a.path, std::string("m/a"));
        QCOMPARE(a.totalOpCount, 4u);
        QCOMPARE(a.ops.size(), 3u);
        QCOMPARE(a.children.size(), 1u);
        QCOMPARE(tree.node(a.children[0]).path, std::string("m/a/x"));
        QCOMPARE(tree.node(a.children[0]).parent, a.id);
        QCOMPARE(tree.node(m.children[1]).name, std::string("b"));
        QCOMPARE(tree.rowInParent(m.children[1]), 1u);
        QCOMPARE(tree.nodes().size(), 5u);  // root, m, m/a, m/b, m/a/x
    }

    void parametersCountMergedCopiesButNotTiesOrStatistics()
    {
        GraphBuilder b;
        b.addInput("ids", DataType::Int64, {});
        b.addInput("x", DataType::Float32, {});
        b.addInitializer(weight("wte", {10, 4}));    // embedding, tied to the head
        b.addInitializer(weight("h.0.w", {4, 4}));   // shared by two layers via Identity
        b.addInitializer(weight("bn.mean", {4}));    // BatchNorm statistics
        b.addInitializer(weight("bn.var", {4}));
        b.addInitializer(weight("bn.scale", {4}));
        b.addInitializer(weight("bn.bias", {4}));
        b.addInitializer(weight("eps", {}));          // scalar constant
        b.addInitializer(weight("shape", {2}, DataType::Int64));
        b.addOp("Gather", "emb", {"wte", "ids"}, {"e"});
        b.addOp("Identity", "copy", {"h.0.w"}, {"h.1.w"});
        b.addOp("MatMul", "l0", {"e", "h.0.w"}, {"a"});
        b.addOp("MatMul", "l1", {"a", "h.1.w"}, {"c"});
        b.addOp("BatchNormalization", "bn", {"x", "bn.scale", "bn.bias", "bn.mean", "bn.var"}, {"n"});
        b.addOp("Add", "add", {"n", "eps"}, {"m"});
        b.addOp("Reshape", "reshape", {"m", "shape"}, {"r"});
        b.addOp("Identity", "tie", {"wte"}, {"lm_head.weight"});
        b.addOp("Transpose", "t", {"lm_head.weight"}, {"wt"});
        b.addOp("MatMul", "head", {"c", "wt"}, {"logits"});
        const ParameterCount count = countParameters(b.finish());
        // wte 40 (once, tied) + h.0.w 16 + h.1.w 16 + bn scale/bias 8 = 80
        QCOMPARE(count.parameters, 80u);
        QCOMPARE(count.weights, 5u);
        QCOMPARE(count.bytes, 320u);
    }

    void shapeElementCount()
    {
        QCOMPARE(TensorShape::ofExtents({2, 3, 4}).elementCount().value_or(-1), 24);
        const TensorShape symbolic({Dimension::symbolic("batch"), Dimension::known(3)});
        QVERIFY(!symbolic.isStatic());
        QVERIFY(!symbolic.elementCount().has_value());
        QCOMPARE(TensorShape().toString(), std::string("?"));
        QCOMPARE(TensorShape({Dimension{}, Dimension::known(2)}).toString(), std::string("[?, 2]"));
    }
};

QTEST_APPLESS_MAIN(GraphBuilderTest)
#include "GraphBuilderTest.moc"
