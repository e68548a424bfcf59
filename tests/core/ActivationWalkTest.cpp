// The walk over activations that the cost model (projectedBytes) and InstanceRepeats
// share (fold/ActivationWalk.h), on a small inline graph: a projection, then a bias add,
// a reshape and a transpose (each reads one activation), then ops that read two.
#include "fold/ActivationWalk.h"
#include "fold/FoldedModel.h"
#include "graph/GraphBuilder.h"
#include "TestInitializer.h"

#include <QTest>

#include <string>

using namespace tapestry;

namespace {

void addWeight(GraphBuilder& b, const std::string& name, std::vector<std::int64_t> dims, DataType type)
{
    b.addInitializer(test::testInitializer(name, type, std::move(dims)));
}

// x [4, 8] -> MatMul(W) -> Add(bias) -> Reshape(to [4, 2, 4]) -> Transpose -> t;
// Mul(t, t) reads t twice, and Add(r, t) reads two activations.
FoldedModel projectionThenReshapes()
{
    GraphBuilder b;
    const auto shape = [](std::vector<std::int64_t> dims) { return TensorShape::ofExtents(dims); };
    b.addInput("x", DataType::Float32, shape({4, 8}));
    addWeight(b, "w", {8, 8}, DataType::Float32);
    addWeight(b, "bias", {8}, DataType::Float32);
    addWeight(b, "heads", {3}, DataType::Int64);
    b.addOp("MatMul", "proj", {"x", "w"}, {"y"}, {}, ScopePath({"proj"}));
    b.addOp("Add", "bias_add", {"y", "bias"}, {"yb"}, {}, ScopePath({"proj"}));
    b.addOp("Reshape", "split", {"yb", "heads"}, {"r"}, {}, ScopePath({"proj"}));
    b.addOp("Transpose", "swap", {"r"}, {"t"}, {}, ScopePath({"proj"}));
    b.addOp("Mul", "square", {"t", "t"}, {"sq"}, {}, ScopePath({"proj"}));
    b.addOp("Add", "sum", {"sq", "t"}, {"out"}, {}, ScopePath({"proj"}));
    b.setTensorType("y", DataType::Float32, shape({4, 8}));
    b.setTensorType("yb", DataType::Float32, shape({4, 8}));
    b.setTensorType("r", DataType::Float32, shape({4, 2, 4}));
    b.setTensorType("t", DataType::Float32, shape({2, 4, 4}));
    b.setTensorType("sq", DataType::Float32, shape({2, 4, 4}));
    b.setTensorType("out", DataType::Float32, shape({2, 4, 4}));
    b.markOutput("out");
    return foldModel(b.finish());
}

TensorId tensorNamed(const Graph& graph, const std::string& name)
{
    for (const Tensor& tensor : graph.tensors()) {
        if (tensor.name == name)
            return tensor.id;
    }
    return {};
}

}  // namespace

class ActivationWalkTest : public QObject {
    Q_OBJECT

private slots:
    // Weights (and the reshape's target shape) are constants; the input and what the
    // projection makes are not.
    void weightsAreConstantsActivationsAreNot()
    {
        const FoldedModel m = projectionThenReshapes();
        for (const char* constant : {"w", "bias", "heads"})
            QVERIFY2(isDerivedConstant(m.graph(), m.coarse, tensorNamed(m.graph(), constant)), constant);
        for (const char* activation : {"x", "y", "yb", "r", "t"})
            QVERIFY2(!isDerivedConstant(m.graph(), m.coarse, tensorNamed(m.graph(), activation)), activation);
    }

    // From t back: the transpose, the reshape and the bias add each lead to their one
    // activation input, and the walk stops at the projection's output y (the projection
    // is an anchor, not a follower). An op reading two activations, or one twice, ends it.
    void aWalkBackGoesThroughOneInputFollowersToTheProjection()
    {
        const FoldedModel m = projectionThenReshapes();
        const Graph& g = m.graph();
        std::vector<std::string> walked;
        TensorId at = tensorNamed(g, "t");
        for (TensorId next; (next = activationWalkedBackThrough(g, m.coarse, g.tensor(at).producer)).isValid();
             at = next)
            walked.push_back(g.tensor(next).name);
        QCOMPARE(walked, (std::vector<std::string>{"r", "yb", "y"}));
        QVERIFY(!activationWalkedBackThrough(g, m.coarse, g.tensor(tensorNamed(g, "sq")).producer).isValid());
        QVERIFY(!activationWalkedBackThrough(g, m.coarse, g.tensor(tensorNamed(g, "out")).producer).isValid());
        // A graph input has no maker to walk through.
        QVERIFY(!activationWalkedBackThrough(g, m.coarse, g.tensor(tensorNamed(g, "x")).producer).isValid());
    }
};

QTEST_GUILESS_MAIN(ActivationWalkTest)
#include "ActivationWalkTest.moc"
