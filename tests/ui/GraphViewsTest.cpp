// The graph views with real widgets over a ModelSession: the folded Llama-3-8B shows one family box with a
// "×32" badge; double-clicking it opens the representative layer in place; search
// highlights boxes; the GUI thread keeps running while a layout job runs; an op the
// importer could not size is marked not priced in its details and the model summary.
#include "fold/FoldedModel.h"
#include "graph/GraphBuilder.h"
#include "graphview/GraphNodeDetails.h"
#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewContent.h"
#include "graphview/GraphViewsPanel.h"
#include "model/LoadedModel.h"
#include "model/ModelSession.h"
#include "model/ModelSummaryView.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace tapestry;

class GraphViewsTest : public QObject {
    Q_OBJECT

private:
    static constexpr int kTimeoutMs = 60000;

    std::shared_ptr<const LoadedModel> llama_;

    static GraphNodeItem* itemWithBadge(const GraphView& view, const QString& badge)
    {
        for (GraphNodeItem* item : view.nodeItems()) {
            if (item->badge() == badge)
                return item;
        }
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        llama_ = LoadedModel::load(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/llama3_8b_shape.dynamo.stripped.onnx"));
    }

    void foldedViewShowsTheLayerFamilyOnce()
    {
        ModelSession session;
        GraphViewsPanel panel(&session);
        panel.resize(1000, 700);
        panel.show();
        QCOMPARE(panel.currentView(), GraphViewKind::Folded);
        QSignalSpy shown(&panel, &GraphViewsPanel::viewShown);
        session.setModel(llama_);
        QTRY_VERIFY_WITH_TIMEOUT(panel.pane(GraphViewKind::Folded)->isShown(), kTimeoutMs);

        const FoldedModel& folded = *session.folded();
        const GraphView& view = *panel.pane(GraphViewKind::Folded)->view();
        // Embedding, mask preparation, final norm, LM head and the 32 layers as one box.
        QCOMPARE(view.nodeItems().size(), folded.families.unfoldedNodes.size() + 1);
        const GraphNodeItem* layers = itemWithBadge(view, QStringLiteral("×32"));
        QVERIFY(layers);
        QVERIFY(layers->label().startsWith(QStringLiteral("model/layers.#")));
        QVERIFY(layers->toolTip().isEmpty());  // the hover card is built on first hover
        QCOMPARE(shown.first().first().value<GraphViewKind>(), GraphViewKind::Folded);
    }

    void doubleClickExpandsAndCollapsesTheFamily()
    {
        ModelSession session;
        GraphViewsPanel panel(&session);
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        session.setModel(llama_);
        GraphViewPane* pane = panel.pane(GraphViewKind::Folded);
        QTRY_VERIFY_WITH_TIMEOUT(pane->isShown(), kTimeoutMs);
        GraphView* view = pane->view();
        const FoldedModel& folded = *session.folded();
        const std::size_t perLayer = folded.families.families.front().representative().nodes.size();

        GraphNodeItem* layers = itemWithBadge(*view, QStringLiteral("×32"));
        QVERIFY(layers);
        const QPoint at = view->mapFromScene(layers->scenePos());
        QVERIFY(view->viewport()->rect().contains(at));
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(pane->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isBusy(), kTimeoutMs);
        QCOMPARE(view->nodeItems().size(), folded.families.unfoldedNodes.size() + perLayer);
        QVERIFY(!itemWithBadge(*view, QStringLiteral("×32")));

        // Any box of the opened layer folds it again.
        pane->toggle(view->nodeItems().size() / 2);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isBusy(), kTimeoutMs);
        QCOMPARE(view->nodeItems().size(), folded.families.unfoldedNodes.size() + 1);
        QVERIFY(itemWithBadge(*view, QStringLiteral("×32")));
    }

    void searchHighlightsMatchingBoxes()
    {
        ModelSession session;
        GraphViewsPanel panel(&session);
        panel.resize(1000, 700);
        panel.show();
        session.setModel(llama_);
        GraphViewPane* pane = panel.pane(GraphViewKind::Folded);
        QTRY_VERIFY_WITH_TIMEOUT(pane->isShown(), kTimeoutMs);
        // The folded pane's own search field, which sits beside the tabs.
        QLineEdit* search = nullptr;
        for (QLineEdit* field : panel.findChildren<QLineEdit*>(QStringLiteral("graphSearch"))) {
            if (field->isVisible())
                search = field;
        }
        QVERIFY(search);
        search->setText(QStringLiteral("lm_head"));
        int matches = 0;
        for (const GraphNodeItem* item : pane->view()->nodeItems())
            matches += item->isMatch() ? 1 : 0;
        QCOMPARE(matches, 1);
        QTest::keyClick(search, Qt::Key_Return);
        const std::optional<std::size_t> selected = pane->view()->selectedNode();
        QVERIFY(selected);
        QVERIFY(pane->view()->nodeItem(*selected)->isMatch());

        search->clear();
        for (const GraphNodeItem* item : pane->view()->nodeItems())
            QVERIFY(!item->isMatch());
    }

    void guiThreadRunsDuringLayout()
    {
        ModelSession session;
        GraphViewsPanel panel(&session);
        panel.resize(1000, 700);
        panel.show();
        session.setModel(llama_);
        QTRY_VERIFY_WITH_TIMEOUT(session.folded(), kTimeoutMs);
        // The coarse Llama-3-8B (≈450 boxes) is the largest layout here. Ticks of a timer
        // the GUI thread ran while the pane was laying it out: a layout on the GUI thread
        // would have ended (and isBusy() turned false) before any could run. How long the
        // thread pauses to build the boxes' items is a latency, for a bench, not this test.
        GraphViewPane* pane = panel.pane(GraphViewKind::Coarse);
        int ticksWhileBusy = 0;
        QTimer timer;
        timer.setInterval(5);
        connect(&timer, &QTimer::timeout, this, [&] { ticksWhileBusy += pane->isBusy() ? 1 : 0; });
        timer.start();
        panel.showView(GraphViewKind::Coarse);
        QVERIFY(pane->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(pane->isShown(), kTimeoutMs);
        timer.stop();
        QVERIFY(pane->view()->nodeItems().size() > 400);
        QVERIFY2(ticksWhileBusy >= 3, qPrintable(QString::number(ticksWhileBusy)));
    }
    void unsizedOpIsMarkedNotPricedInTheDetailsAndTheSummary()
    {
        // y = MatMul(x, w) with x of unknown rank, as the importer leaves it when no
        // inference sizes x; relu after it is an ordinary op.
        ModelInfo info;
        info.unsizedOps = {"mm"};
        GraphBuilder builder(info);
        builder.addInput("x", DataType::Float32, TensorShape{});
        Initializer w;
        w.name = "w";
        w.dtype = DataType::Float32;
        w.dims = {4, 3};
        w.elementCount = 12;
        w.byteSize = 48;
        builder.addInitializer(w);
        const OpId mm = builder.addOp("MatMul", "mm", {"x", "w"}, {"y"});
        const OpId relu = builder.addOp("Relu", "relu", {"y"}, {"z"});
        builder.markOutput("z");
        auto graph = std::make_shared<const Graph>(builder.finish());
        const LoadedModel model{QStringLiteral("unsized.onnx"), graph, summarizeModel(*graph), ScopeTree::build(*graph)};
        const FoldedModel folded = foldModel(graph);

        const QString notPriced = QStringLiteral("its operand shapes could not be inferred");
        QVERIFY(GraphNodeDetails::html(model, folded, {ViewNodeRef::Kind::Op, mm.index()}).contains(notPriced));
        QVERIFY(!GraphNodeDetails::html(model, folded, {ViewNodeRef::Kind::Op, relu.index()}).contains(notPriced));
        const CoarseNode& matmulNode = folded.coarse.node(folded.coarse.nodeOf.at(mm.index()));
        const QString card = GraphNodeDetails::html(model, folded, {ViewNodeRef::Kind::Coarse, matmulNode.id.index()});
        QVERIFY2(card.contains(QStringLiteral("1 op(s) whose operand shapes could not be inferred")), qPrintable(card));
        QVERIFY(card.contains(QStringLiteral("(not priced)")));

        ModelSummaryView summary;
        summary.setModel(std::make_shared<const LoadedModel>(model));
        const auto* unpriced = summary.findChild<QLabel*>(QStringLiteral("unpricedValue"));
        QVERIFY(unpriced);
        QCOMPARE(unpriced->text(), QStringLiteral("1 op(s) whose operand shapes could not be inferred: mm"));
        summary.setModel(llama_);
        QCOMPARE(unpriced->text(), QStringLiteral("none"));
    }
};

QTEST_MAIN(GraphViewsTest)
#include "GraphViewsTest.moc"
