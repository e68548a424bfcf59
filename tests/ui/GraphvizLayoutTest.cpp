// Graphviz layout in process: positions are finite and inside the bounding box, y grows
// downwards (a parent sits above its child), edges start and end at their nodes,
// clusters enclose their nodes, and concurrent callers are serialized safely.
#include "layout/GraphvizLayout.h"

#include <QTest>

#include <cmath>
#include <future>

using namespace tapestry;

namespace {

// a -> b -> c, a -> c, with b and c in one cluster; fixed 72 x 36 point boxes.
LayoutGraph chain()
{
    LayoutGraph graph;
    graph.clusters.push_back({"block"});
    for (const char* name : {"a", "b", "c"}) {
        LayoutNode node;
        node.label = name;
        node.widthPoints = 72;
        node.heightPoints = 36;
        graph.nodes.push_back(node);
    }
    graph.nodes[1].cluster = 0;
    graph.nodes[2].cluster = 0;
    graph.edges = {{0, 1}, {1, 2}, {0, 2}};
    return graph;
}

bool finite(LayoutPoint p)
{
    return std::isfinite(p.x) && std::isfinite(p.y);
}

}  // namespace

class GraphvizLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void placesNodesTopToBottomInsideTheBounds()
    {
        const LayoutResult result = layOut(chain());
        QCOMPARE(result.nodes.size(), std::size_t{3});
        QCOMPARE(result.bounds.left, 0.0);
        QCOMPARE(result.bounds.top, 0.0);
        for (const NodePlacement& node : result.nodes) {
            QVERIFY(finite(node.center));
            // Fixed sizes come back in points (Graphviz reports inches).
            QCOMPARE(node.width, 72.0);
            QCOMPARE(node.height, 36.0);
            const LayoutBox box = node.box();
            QVERIFY(result.bounds.contains({box.left, box.top}, 0.5));
            QVERIFY(result.bounds.contains({box.left + box.width, box.top + box.height}, 0.5));
        }
        // y down: each parent above its child, a full rank (box height) apart at least.
        QVERIFY(result.nodes[0].center.y + 36 <= result.nodes[1].center.y);
        QVERIFY(result.nodes[1].center.y + 36 <= result.nodes[2].center.y);
    }

    void edgesRunFromTheirSourceToTheirTarget()
    {
        const LayoutGraph graph = chain();
        const LayoutResult result = layOut(graph);
        QCOMPARE(result.edges.size(), graph.edges.size());
        for (std::size_t i = 0; i < graph.edges.size(); ++i) {
            const EdgeRoute& route = result.edges[i];
            QVERIFY(route.points.size() >= 4);
            QCOMPARE((route.points.size() - 1) % 3, std::size_t{0});  // cubic B-spline
            QVERIFY(route.hasArrow);
            for (const LayoutPoint& p : route.points)
                QVERIFY(finite(p) && result.bounds.contains(p, 0.5));
            const LayoutBox from = result.nodes[graph.edges[i].from].box();
            const LayoutBox to = result.nodes[graph.edges[i].to].box();
            QVERIFY2(from.contains(route.points.front(), 1.0), qPrintable(QString::number(i)));
            QVERIFY2(to.contains(route.arrowTip, 1.0), qPrintable(QString::number(i)));
        }
    }

    void clusterEnclosesItsNodes()
    {
        const LayoutResult result = layOut(chain());
        QCOMPARE(result.clusters.size(), std::size_t{1});
        const LayoutBox cluster = result.clusters[0];
        for (const std::size_t i : {std::size_t{1}, std::size_t{2}}) {
            const LayoutBox box = result.nodes[i].box();
            QVERIFY(cluster.contains({box.left, box.top}) && cluster.contains({box.left + box.width, box.top + box.height}));
        }
        const LayoutBox outside = result.nodes[0].box();
        QVERIFY(!cluster.contains(outside.center()));
    }

    void emptyGraphHasEmptyLayout()
    {
        const LayoutResult result = layOut(LayoutGraph{});
        QVERIFY(result.nodes.empty());
        QCOMPARE(result.bounds.width, 0.0);
    }

    void concurrentCallersGetTheSameLayout()
    {
        const LayoutResult reference = layOut(chain());
        std::vector<std::future<LayoutResult>> runs;
        for (int i = 0; i < 4; ++i)
            runs.push_back(std::async(std::launch::async, [] { return layOut(chain()); }));
        for (auto& run : runs) {
            const LayoutResult result = run.get();
            for (std::size_t n = 0; n < 3; ++n) {
                QCOMPARE(result.nodes[n].center.x, reference.nodes[n].center.x);
                QCOMPARE(result.nodes[n].center.y, reference.nodes[n].center.y);
            }
        }
    }
};

QTEST_APPLESS_MAIN(GraphvizLayoutTest)
#include "GraphvizLayoutTest.moc"
