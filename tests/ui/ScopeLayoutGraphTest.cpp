// The original graph grouped by scope: collapsed by default to the top-level scopes,
// expanding a scope shows its child scopes and direct ops, edges are mapped to the
// visible boxes without duplicates or self edges. On a small inline graph and on the
// TorchScript export of a tiny Llama.
#include "graph/GraphBuilder.h"
#include "graph/ScopeTree.h"
#include "layout/ScopeLayoutGraph.h"
#include "onnx/OnnxImporter.h"

#include <QTest>

#include <set>

using namespace tapestry;

namespace {

Initializer weight(std::string name, std::vector<std::int64_t> dims)
{
    Initializer init;
    init.name = std::move(name);
    init.dtype = DataType::Float32;
    init.dims = std::move(dims);
    init.elementCount = 16;
    init.byteSize = 64;
    return init;
}

ScopePath scope(std::vector<std::string> components)
{
    return ScopePath(std::move(components));
}

// model/{embed, layers.0/{mlp, Relu}, layers.1/{mlp, Relu}}, lm_head, and an unscoped Softmax.
Graph smallModel()
{
    GraphBuilder b;
    b.addInput("ids", DataType::Int64, TensorShape::ofExtents({1, 4}));
    for (const char* w : {"table", "w0", "w1", "wh"})
        b.addInitializer(weight(w, {4, 4}));
    b.addOp("Gather", "/model/embed/Gather", {"table", "ids"}, {"e"}, {}, scope({"model", "embed"}));
    b.addOp("MatMul", "/model/layers.0/mlp/MatMul", {"e", "w0"}, {"m0"}, {}, scope({"model", "layers.0", "mlp"}));
    b.addOp("Relu", "/model/layers.0/Relu", {"m0"}, {"r0"}, {}, scope({"model", "layers.0"}));
    b.addOp("MatMul", "/model/layers.1/mlp/MatMul", {"r0", "w1"}, {"m1"}, {}, scope({"model", "layers.1", "mlp"}));
    b.addOp("Relu", "/model/layers.1/Relu", {"m1"}, {"r1"}, {}, scope({"model", "layers.1"}));
    b.addOp("MatMul", "/lm_head/MatMul", {"r1", "wh"}, {"logits"}, {}, scope({"lm_head"}));
    b.addOp("Softmax", "Softmax", {"logits"}, {"p"});
    b.markOutput("p");
    return b.finish();
}

ScopeNodeId scopeAt(const ScopeTree& tree, const std::string& path)
{
    for (const ScopeNode& node : tree.nodes()) {
        if (node.path == path)
            return node.id;
    }
    return {};
}

std::vector<std::string> labels(const ScopeLayoutGraph& view)
{
    std::vector<std::string> out;
    for (const LayoutNode& node : view.graph.nodes)
        out.push_back(node.label);
    return out;
}

std::set<std::pair<std::string, std::string>> edges(const ScopeLayoutGraph& view)
{
    std::set<std::pair<std::string, std::string>> out;
    for (const LayoutEdge& edge : view.graph.edges)
        out.insert({view.graph.nodes[edge.from].label, view.graph.nodes[edge.to].label});
    return out;
}

void checkEdgeInvariants(const ScopeLayoutGraph& view)
{
    std::set<std::pair<std::size_t, std::size_t>> seen;
    for (const LayoutEdge& edge : view.graph.edges) {
        QVERIFY(edge.from != edge.to);
        QVERIFY(edge.from < view.graph.nodes.size() && edge.to < view.graph.nodes.size());
        QVERIFY(seen.insert({edge.from, edge.to}).second);
    }
}

}  // namespace

class ScopeLayoutGraphTest : public QObject {
    Q_OBJECT

private slots:
    void collapsedShowsTopLevelScopesAndUnscopedOps()
    {
        const Graph graph = smallModel();
        const ScopeTree tree = ScopeTree::build(graph);
        const ScopeLayoutGraph view = scopeLayoutGraph(graph, tree, {});
        QCOMPARE(labels(view), (std::vector<std::string>{"model (5 ops)", "lm_head (1 op)", "Softmax"}));
        QCOMPARE(view.items.size(), std::size_t{3});
        QCOMPARE(view.items[0].scope, scopeAt(tree, "model"));
        QVERIFY(!view.items[0].op.isValid());
        QVERIFY(view.items[2].op.isValid() && !view.items[2].scope.isValid());
        QVERIFY(view.graph.clusters.empty());
        QCOMPARE(edges(view), (std::set<std::pair<std::string, std::string>>{
                                  {"model (5 ops)", "lm_head (1 op)"}, {"lm_head (1 op)", "Softmax"}}));
        checkEdgeInvariants(view);
    }

    void expandingAScopeShowsItsChildrenInACluster()
    {
        const Graph graph = smallModel();
        const ScopeTree tree = ScopeTree::build(graph);
        const ScopeLayoutGraph view = scopeLayoutGraph(graph, tree, {scopeAt(tree, "model")});
        QCOMPARE(labels(view), (std::vector<std::string>{"embed (1 op)", "layers.0 (2 ops)", "layers.1 (2 ops)",
                                                          "lm_head (1 op)", "Softmax"}));
        QCOMPARE(view.graph.clusters.size(), std::size_t{1});
        QCOMPARE(view.graph.clusters[0].label, std::string("model (5 ops)"));
        QCOMPARE(view.graph.nodes[0].cluster, 0);
        QCOMPARE(view.graph.nodes[3].cluster, -1);
        QCOMPARE(edges(view).size(), std::size_t{4});
        QVERIFY(edges(view).contains({"layers.0 (2 ops)", "layers.1 (2 ops)"}));
        checkEdgeInvariants(view);
    }

    void expandingANestedScopeShowsItsDirectOps()
    {
        const Graph graph = smallModel();
        const ScopeTree tree = ScopeTree::build(graph);
        const ScopeNodeId layer0 = scopeAt(tree, "model/layers.0");
        const ScopeLayoutGraph view = scopeLayoutGraph(graph, tree, {scopeAt(tree, "model"), layer0});
        QCOMPARE(labels(view), (std::vector<std::string>{"embed (1 op)", "mlp (1 op)", "Relu", "layers.1 (2 ops)",
                                                          "lm_head (1 op)", "Softmax"}));
        QCOMPARE(view.graph.clusters.size(), std::size_t{2});
        QCOMPARE(view.graph.nodes[1].cluster, 1);  // innermost open scope
        QCOMPARE(view.graph.nodes[2].cluster, 1);
        QCOMPARE(view.graph.nodes[3].cluster, 0);
        QVERIFY(edges(view).contains({"mlp (1 op)", "Relu"}));
        QVERIFY(edges(view).contains({"Relu", "layers.1 (2 ops)"}));
        checkEdgeInvariants(view);

        // A scope whose parent is collapsed stays hidden inside the parent's box.
        QCOMPARE(labels(scopeLayoutGraph(graph, tree, {layer0})), labels(scopeLayoutGraph(graph, tree, {})));
    }

    void llamaCollapsedThenModelExpanded()
    {
        const Graph graph = importOnnxModel(TAPESTRY_TEST_DATA_DIR "/llama.ts.stripped.onnx");
        const ScopeTree tree = ScopeTree::build(graph);
        const ScopeNode& root = tree.node(tree.root());

        const ScopeLayoutGraph collapsed = scopeLayoutGraph(graph, tree, {});
        QCOMPARE(collapsed.items.size(), root.children.size() + root.ops.size());
        for (std::size_t i = 0; i < root.children.size(); ++i)
            QCOMPARE(collapsed.items[i].scope, root.children[i]);
        checkEdgeInvariants(collapsed);

        const ScopeNodeId model = scopeAt(tree, "model");
        QVERIFY(model.isValid());
        const ScopeNode& modelNode = tree.node(model);
        const ScopeLayoutGraph expanded = scopeLayoutGraph(graph, tree, {model});
        QCOMPARE(expanded.items.size(), collapsed.items.size() - 1 + modelNode.children.size() + modelNode.ops.size());
        std::set<ScopeNodeId> shownScopes;
        for (const ScopeViewItem& item : expanded.items) {
            if (item.scope.isValid())
                shownScopes.insert(item.scope);
        }
        for (const ScopeNodeId child : modelNode.children)
            QVERIFY(shownScopes.contains(child));
        QVERIFY(!shownScopes.contains(model));
        QVERIFY(shownScopes.contains(scopeAt(tree, "model/layers.0")));
        checkEdgeInvariants(expanded);
    }
};

QTEST_APPLESS_MAIN(ScopeLayoutGraphTest)
#include "ScopeLayoutGraphTest.moc"
