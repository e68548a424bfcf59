// The explorer on the screen it runs on (registered twice: under a 1366x768 and a
// 1920x1080 X server): the window opens inside the screen's free area and stays inside
// with every dock shown, after a real search no column of the results table lies beyond
// its view, chart axes get no more labels than their width holds, and the node details
// wrap between words; in English, in German, whose labels are longest, and in Chinese.
#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewsPanel.h"
#include "search/ClusterPanel.h"
#include "search/SearchResultsPanel.h"
#include "model/ModelSession.h"
#include "windows/MainWindow.h"
#include "plans/PlanCompareView.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanInspector.h"
#include "plans/PlanWorkbench.h"
#include "search/PlanCandidate.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"
#include "ScratchGuiEnvironment.h"

#include <QAbstractTextDocumentLayout>
#include <QChartView>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QAction>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <QTranslator>
#include <QValueAxis>

using namespace tapestry;

class ScreenFitTest : public QObject {
    Q_OBJECT

private:
    static constexpr int kTimeoutMs = 60000;

    static QRect freeArea() { return QGuiApplication::primaryScreen()->availableGeometry(); }

    static void checkInsideScreen(const QWidget& window, const char* when)
    {
        const QRect frame = window.frameGeometry();
        QVERIFY2(freeArea().contains(frame), qPrintable(QStringLiteral("%1: window %2,%3 %4x%5 on a %6x%7 screen")
                                                            .arg(QLatin1String(when))
                                                            .arg(frame.x())
                                                            .arg(frame.y())
                                                            .arg(frame.width())
                                                            .arg(frame.height())
                                                            .arg(freeArea().width())
                                                            .arg(freeArea().height())));
    }

    // Every column of `table` lies inside its view and on the screen (the results'
    // Origin column is hidden on a narrow list), and the plan's name has room for
    // "Data parallel".
    static void checkColumnsVisible(const QTableView& table)
    {
        const QHeaderView* header = table.horizontalHeader();
        QVERIFY2(header->sectionSize(SearchResultsModel::PlanColumn) >=
                     table.fontMetrics().horizontalAdvance(QStringLiteral("Data parallel")),
                 qPrintable(QStringLiteral("the plan column is %1 wide").arg(header->sectionSize(0))));
        for (int column = 0; column < header->count(); ++column) {
            if (header->isSectionHidden(column))
                continue;
            const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
            const QString name = table.model()->headerData(column, Qt::Horizontal).toString();
            QVERIFY2(header->sectionViewportPosition(column) >= 0 && right <= header->viewport()->width(),
                     qPrintable(QStringLiteral("column '%1' ends at %2 in a view %3 wide")
                                    .arg(name)
                                    .arg(right)
                                    .arg(header->viewport()->width())));
            const int screenRight = header->viewport()->mapToGlobal(QPoint(right, 0)).x();
            QVERIFY2(screenRight <= freeArea().right() + 1, qPrintable(name));
        }
    }

    // No horizontal value axis of a visible chart has more labels than fit side by side.
    static void checkAxesReadable(const QWidget& window)
    {
        int checked = 0;
        for (const QChartView* view : window.findChildren<QChartView*>()) {
            if (!view->isVisible() || view->chart()->series().isEmpty())
                continue;
            const double width = view->chart()->plotArea().width();
            for (const QAbstractAxis* abstract : view->chart()->axes(Qt::Horizontal)) {
                const auto* axis = qobject_cast<const QValueAxis*>(abstract);
                if (!axis)
                    continue;
                const double interval = axis->tickType() == QValueAxis::TicksDynamic
                                            ? axis->tickInterval()
                                            : (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
                const int labels = static_cast<int>(std::floor((axis->max() - axis->min()) / interval + 1e-9)) + 1;
                const QFontMetrics metrics(axis->labelsFont());
                const QString widest = QString::asprintf(axis->labelFormat().toLatin1().constData(), axis->max());
                QVERIFY2(labels * metrics.horizontalAdvance(widest) < width,
                         qPrintable(QStringLiteral("%1: %2 labels like '%3' on a plot %4 px wide")
                                        .arg(view->objectName())
                                        .arg(labels)
                                        .arg(widest)
                                        .arg(width)));
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    // No line of the details panel starts inside a word ("Kin" "d").
    static void checkWrapsAtSpaces(QTextBrowser* details)
    {
        QTextDocument* document = details->document();
        int wrapped = 0;
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
            const QTextLayout* layout = block.layout();
            for (int i = 1; i < layout->lineCount(); ++i) {
                const int start = layout->lineAt(i).textStart();
                const QChar before = block.text().at(start - 1);
                const QChar after = block.text().at(start);
                // Chinese breaks between any two ideographs; a Latin word never breaks.
                const bool ideographic = before.script() == QChar::Script_Han || after.script() == QChar::Script_Han;
                QVERIFY2(ideographic || !before.isLetterOrNumber() || !after.isLetterOrNumber(),
                         qPrintable(QStringLiteral("a line breaks inside '%1'").arg(block.text().mid(start - 6, 12))));
                ++wrapped;
            }
        }
        QVERIFY(wrapped > 0);  // the panel was narrow enough to wrap at all
    }

    // After a search, in the window's own arrangement: the folded graph takes at least a
    // third of the window, the editor's strategy table shows at least 8 rows, and the
    // comparison draws both plans at least 180 px tall (their legend shared under them), with
    // the table of differences beside them.
    static void checkRoomToWork(MainWindow& window)
    {
        QTest::qWait(200);  // the docks settle
        const QSize graph = window.graphViews()->pane(GraphViewKind::Folded)->view()->size();
        const double share = double(graph.width()) * graph.height() / (double(window.width()) * window.height());
        qInfo("the folded graph: %dx%d in a %dx%d window (%.1f %%)", graph.width(), graph.height(), window.width(),
              window.height(), share * 100);
        QVERIFY2(share >= 1.0 / 3, qPrintable(QStringLiteral("the folded graph is %1x%2 in a %3x%4 window (%5 %)")
                                                 .arg(graph.width())
                                                 .arg(graph.height())
                                                 .arg(window.width())
                                                 .arg(window.height())
                                                 .arg(share * 100, 0, 'f', 1)));
        QVERIFY(window.workbench()->editDock()->isVisible());
        const auto* choices = window.workbench()->editPanel()->findChild<QTableView*>(QStringLiteral("editChoices"));
        QVERIFY(choices && choices->isVisible());
        const int rows = choices->viewport()->height() / choices->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 8, qPrintable(QStringLiteral("the editor's table holds %1 rows").arg(rows)));

        // The inspector's cost table: at 1366 x 768 it showed 3-4 rows under the plan's
        // summary, its tabs, scroll bar and footer; the bottom docks now take up to 35 % of
        // the height (the graph keeps its third), the footer shows only under a filter, and
        // the node's name keeps room for '…/self_attn/q_proj/MatMul', no more.
        window.showInspector(true);
        QTest::qWait(100);
        const auto* costs = window.planInspector()->findChild<QTableView*>(QStringLiteral("inspectorTable"));
        QVERIFY(costs && costs->isVisible() && costs->model()->rowCount() > 8);
        const int costRows = costs->viewport()->height() / costs->verticalHeader()->defaultSectionSize();
        QVERIFY2(costRows >= 5, qPrintable(QStringLiteral("the inspector's cost table holds %1 rows").arg(costRows)));
        QVERIFY(costs->columnWidth(0) <= costs->fontMetrics().horizontalAdvance(QStringLiteral("…/self_attn/q_proj/MatMul")) + 12);
        QVERIFY(!window.planInspector()->findChild<QLabel*>(QStringLiteral("inspectorTotals"))->isVisible());
        window.showInspector(false);

        // Megatron-LM compared with the searched plan.
        std::shared_ptr<const PlanCandidate> megatron;
        for (const auto& candidate : window.session()->results()->candidates) {
            if (SearchResultsModel::planLabel(*candidate) == QStringLiteral("Megatron-LM"))
                megatron = candidate;
        }
        QVERIFY(megatron);
        window.openCandidate(megatron);
        window.workbench()->compareAction()->trigger();
        QVERIFY(window.workbench()->compareDock()->isVisible());
        QTest::qWait(200);
        for (int side = 0; side < 2; ++side) {
            const QSize drawn = window.workbench()->compareView()->pane(side)->view()->size();
            QVERIFY2(drawn.height() >= 180 && drawn.width() >= 300,
                     qPrintable(QStringLiteral("compared plan %1 drawn %2x%3").arg(side).arg(drawn.width()).arg(drawn.height())));
        }
        // Beside them the table of differences keeps room for a node's name and a
        // strategy (at 1366 px in German it was 80 px wide, names cut to '…del/layers.').
        const auto* differences = window.workbench()->compareView()->findChild<QTableView*>(QStringLiteral("compareTable"));
        QVERIFY(differences);
        const int character = differences->fontMetrics().averageCharWidth();
        QVERIFY2(differences->width() >= 40 * character && differences->columnWidth(0) >= 18 * character,
                 qPrintable(QStringLiteral("the compared plans' differences: %1 px wide, names %2 px, %3 px a character")
                                .arg(differences->width())
                                .arg(differences->columnWidth(0))
                                .arg(character)));
        window.workbench()->compareDock()->hide();
        window.openCandidate(window.session()->results()->best());
    }

    void fitsTheScreen()
    {
        // Each language starts from the window's own arrangement, not the one the
        // previous window saved when it closed.
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        checkInsideScreen(window, "opened");
        if (QTest::currentTestFailed())
            return;

        window.openFile(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/gpt2.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->folded() != nullptr, kTimeoutMs);
        ClusterPanel* panel = window.clusterPanel();
        QVERIFY(panel->choosePreset(QStringLiteral("dgx-h100x1")));
        QVERIFY(panel->chooseMesh({2, 4}));
        panel->setTimeLimit(5);
        QSignalSpy finished(&window, &MainWindow::searchFinished);
        window.startSearch();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kTimeoutMs);
        checkInsideScreen(window, "after a search");
        if (QTest::currentTestFailed())
            return;
        checkRoomToWork(window);
        if (QTest::currentTestFailed())
            return;

        // Every dock at once: the window still fits.
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            dock->show();
        QTest::qWait(100);
        checkInsideScreen(window, "with every dock shown");
        if (QTest::currentTestFailed())
            return;

        window.showInspector(false);
        QTest::qWait(100);
        QTableView* table = window.searchResults()->table();
        QVERIFY(table->isVisible());
        QVERIFY(table->model()->rowCount() >= 4);
        checkColumnsVisible(*table);
        if (QTest::currentTestFailed())
            return;
        checkAxesReadable(window);
        if (QTest::currentTestFailed())
            return;

        // The details of the first box of the folded view, in a panel 160 px wide.
        GraphViewPane* folded = window.graphViews()->pane(GraphViewKind::Folded);
        QTRY_VERIFY_WITH_TIMEOUT(!folded->view()->nodeItems().empty(), kTimeoutMs);
        // The repeated block: its card is the longest (first and last instance, anchors).
        const auto& items = folded->view()->nodeItems();
        const auto block = std::find_if(items.begin(), items.end(), [](const GraphNodeItem* item) { return !item->badge().isEmpty(); });
        QVERIFY(block != items.end());
        QVERIFY(folded->view()->highlightMatches((*block)->label()) > 0);
        folded->view()->showNextMatch();
        auto* details = folded->findChild<QTextBrowser*>(QStringLiteral("graphDetails"));
        QVERIFY(details && !details->toPlainText().isEmpty());
        details->document()->setTextWidth(160);
        checkWrapsAtSpaces(details);
    }

    void fitsIn(const QString& language, const QLocale& locale)
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/tapestry_%1.qm").arg(language)));
        QCoreApplication::installTranslator(&translator);
        QLocale::setDefault(locale);
        fitsTheScreen();
        QCoreApplication::removeTranslator(&translator);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

private slots:
    void initTestCase()
    {
        test::useScratchGuiEnvironment(QStringLiteral("ScreenFitTest"));
        // ctest runs this under an X server of a given size: make sure it got one.
        const QByteArray expected = qgetenv("TAPESTRY_EXPECTED_SCREEN");
        if (!expected.isEmpty()) {
            const QSize screen = QGuiApplication::primaryScreen()->size();
            QCOMPARE(QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height()), QString::fromLatin1(expected));
        }
    }

    void fitsInEnglish() { fitsTheScreen(); }

    void fitsInGerman() { fitsIn(QStringLiteral("de"), QLocale(QLocale::German, QLocale::Germany)); }
    void fitsInChinese() { fitsIn(QStringLiteral("zh_CN"), QLocale(QLocale::Chinese, QLocale::China)); }
};

QTEST_MAIN(ScreenFitTest)
#include "ScreenFitTest.moc"
