#include "model/ModelSession.h"
#include "model/LoadedModel.h"
#include "search/ClusterPanel.h"
#include "model/ModelSession.h"
#include "windows/MainWindow.h"
#include "fold/FoldedModel.h"
#include "history/HistoryPanel.h"
#include "history/HistoryRecorder.h"
#include "history/HistoryStore.h"
#include "history/HistoryTreeModel.h"
#include "plans/PlanEditor.h"
#include "plans/PlanWorkbench.h"
#include "search/PlanCandidate.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"
#include "windows/RecentFiles.h"
#include "windows/StartupOptions.h"
#include "windows/StartupScript.h"
#include "common/ResourceLocator.h"
#include "ScratchGuiEnvironment.h"

#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QAction>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QFileInfo>
#include <QComboBox>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTreeView>

using namespace tapestry;

// The main window with its real widgets: a model opened through the slot File > Open
// uses is imported in the background and shown; a file that fails to import is
// reported and leaves the previous model on screen.
class MainWindowTest : public QObject {
    Q_OBJECT

private:
    static constexpr int kImportTimeoutMs = 60000;

    static QString dataFile(const char* name) { return QStringLiteral(TAPESTRY_TEST_DATA_DIR "/") + QLatin1String(name); }

    static QString label(const MainWindow& window, const char* objectName)
    {
        const auto* value = window.findChild<QLabel*>(QLatin1String(objectName));
        return value ? value->text() : QStringLiteral("<no label %1>").arg(QLatin1String(objectName));
    }

private slots:
    void initTestCase()
    {
        test::useScratchGuiEnvironment(QStringLiteral("MainWindowTest"));
    }

    void init()
    {
        RecentFiles::clear();
        QSettings().remove(QStringLiteral("modelChoices"));  // what an earlier run remembered
    }

    void opensModelAndShowsSummary()
    {
        MainWindow window;
        window.show();
        const QString path = dataFile("llama3_8b_shape.dynamo.stripped.onnx");
        window.openFile(path);
        QVERIFY(window.isLoading());
        QVERIFY(window.findChild<QProgressBar*>(QStringLiteral("importProgress"))->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);

        QVERIFY(window.session()->model());
        QCOMPARE(window.session()->model()->path, path);
        QCOMPARE(label(window, "opCountValue"), QStringLiteral("2,191"));
        // Llama-3-8B: 8,030,261,248 parameters in bfloat16.
        QCOMPARE(label(window, "parameterCountValue"), QStringLiteral("8.03 B"));
        QCOMPARE(label(window, "parameterBytesValue"), QStringLiteral("16.1 GB"));
        QCOMPARE(label(window, "titleValue"), QStringLiteral("llama3_8b_shape.dynamo.stripped.onnx"));
        QVERIFY(window.windowTitle().contains(QStringLiteral("llama3_8b_shape")));
        QVERIFY(!window.findChild<QProgressBar*>(QStringLiteral("importProgress"))->isVisible());

        const auto* scopes = window.findChild<QTreeView*>(QStringLiteral("scopeView"));
        QVERIFY(scopes->isVisible());
        QCOMPARE(scopes->model()->rowCount(), 1);
        QCOMPARE(RecentFiles::list().value(0), path);
    }

    void newFromPresetSynthesizesAndOpensTheModel()
    {
        MainWindow window;
        window.show();
        // GPT-3 175B as published: 96 decoder layers, 174.6 B parameters.
        window.openPreset(QStringLiteral("gpt3-175b"), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        QVERIFY(window.session()->model());
        QVERIFY(window.session()->model()->path.endsWith(QStringLiteral("/presets/gpt3-175b.onnx")));
        QCOMPARE(window.session()->model()->graph->opCount(), std::size_t{4443});  // with its causal mask
        QCOMPARE(label(window, "parameterCountValue"), QStringLiteral("175 B"));
        // The synthesized file stores fp32 (698 GB); the workload trains in bf16: 2 bytes each.
        QCOMPARE(label(window, "parameterBytesValue"), QStringLiteral("349 GB"));
        auto* precision = window.clusterPanel()->findChild<QComboBox*>(QStringLiteral("precision"));
        precision->setCurrentIndex(precision->findData(static_cast<int>(DataType::Float16)));
        QCOMPARE(label(window, "parameterBytesValue"), QStringLiteral("349 GB"));
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("parameterBytesValue"))->toolTip().contains(QStringLiteral("698 GB")));
        // Another depth is another file: 2 layers of GPT-2 small.
        window.openPreset(QStringLiteral("gpt2-small"), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        QVERIFY(window.session()->model()->path.endsWith(QStringLiteral("/presets/gpt2-small-2l.onnx")));
        ModelSpec spec = findSynthPreset("gpt2-small")->spec;
        spec.layers = 2;
        QCOMPARE(window.session()->model()->graph->opCount(), synthesizeModel(spec, "gpt2-small").opCount());
    }

    // `tapestry --cluster dgx-h100x1 --mesh 4x8 --search`: 32 GPUs asked of a cluster of 8. The
    // window says so and starts no search (it used to warn on stderr and search another mesh).
    void startupMeshThatDoesNotFitStartsNoSearch()
    {
        MainWindow window;
        std::variant<StartupOptions, QString> read = StartupOptions::fromArguments(
            {QStringLiteral("tapestry"), QStringLiteral("--search"), QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"),
             QStringLiteral("--mesh"), QStringLiteral("4x8"), dataFile("gpt2.ts.stripped.onnx")});
        QVERIFY(std::holds_alternative<StartupOptions>(read));
        auto* script = new StartupScript(&window, std::get<StartupOptions>(read));
        window.show();
        script->start();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        QTRY_COMPARE(window.statusBar()->currentMessage(),
                     QStringLiteral("The mesh 4x8 does not fit the cluster's GPUs: no search was started."));
        QTest::qWait(1000);  // the folded view is shown, where a search would start
        QVERIFY(!window.isSearching());
        QCOMPARE(window.statusBar()->currentMessage(),
                 QStringLiteral("The mesh 4x8 does not fit the cluster's GPUs: no search was started."));
    }

    void badFileShowsErrorAndKeepsPreviousModel()
    {
        MainWindow window;
        window.show();
        window.openFile(dataFile("llama.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        QCOMPARE(label(window, "opCountValue"), QStringLiteral("549"));

        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.onnx"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not a model\n");
        file.close();

        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(broken);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kImportTimeoutMs);
        QCOMPARE(finished.at(0).at(0).toBool(), false);

        auto* box = window.findChild<QMessageBox*>(QStringLiteral("loadErrorBox"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains(QStringLiteral("broken.onnx")));
        QVERIFY(box->informativeText().contains(QStringLiteral("The file is not an ONNX model.")));
        QVERIFY(box->informativeText().contains(QStringLiteral("first bytes are not an ONNX ModelProto")));
        box->close();

        QCOMPARE(window.session()->model()->path, dataFile("llama.ts.stripped.onnx"));
        QCOMPARE(label(window, "opCountValue"), QStringLiteral("549"));
        QCOMPARE(label(window, "titleValue"), QStringLiteral("llama.ts.stripped.onnx"));
        QVERIFY(!RecentFiles::list().contains(broken));
    }

    void missingFileIsReported()
    {
        MainWindow window;
        window.show();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(dataFile("no-such-model.onnx"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kImportTimeoutMs);
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("loadErrorBox"));
        QVERIFY(box);
        QVERIFY(box->informativeText().contains(QStringLiteral("The file does not exist.")));
        QVERIFY(!window.session()->model());
    }

    // Only the newest request reaches the screen: the first import's result is dropped.
    void newerOpenSupersedesRunningImport()
    {
        MainWindow window;
        window.show();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(dataFile("llama3_8b_shape.dynamo.stripped.onnx"));
        window.openFile(dataFile("gpt2.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        // Let the first import finish too and deliver its late result, which must be dropped.
        QThreadPool::globalInstance()->waitForDone();
        QTest::qWait(50);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(window.session()->model()->path, dataFile("gpt2.ts.stripped.onnx"));
    }

    void droppedOnnxFileIsOpened()
    {
        MainWindow window;
        window.show();
        const QString path = dataFile("gpt2.ts.stripped.onnx");
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint center = window.rect().center();
        QDragEnterEvent enter(center, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(center), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->model() != nullptr, kImportTimeoutMs);
        QCOMPARE(window.session()->model()->path, path);
    }

    void dragOfOtherFilesIsRefused()
    {
        MainWindow window;
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dataFile("notes.txt"))});
        QDragEnterEvent enter(QPoint(1, 1), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(!enter.isAccepted());
    }

    void recentMenuListsOpenedFilesNewestFirst()
    {
        RecentFiles::add(dataFile("gpt2.ts.stripped.onnx"));
        RecentFiles::add(dataFile("llama.ts.stripped.onnx"));
        MainWindow window;
        QMenu* recent = nullptr;
        for (QMenu* menu : window.findChildren<QMenu*>()) {
            if (menu->title() == QStringLiteral("Open &Recent"))
                recent = menu;
        }
        QVERIFY(recent);
        emit recent->aboutToShow();
        const QList<QAction*> actions = recent->actions();
        QVERIFY(actions.size() >= 2);
        QCOMPARE(actions.at(0)->text(), dataFile("llama.ts.stripped.onnx"));
        QCOMPARE(actions.at(1)->text(), dataFile("gpt2.ts.stripped.onnx"));
    }

    void recentFilesKeepTheLastEight()
    {
        for (int i = 0; i < 10; ++i)
            RecentFiles::add(QStringLiteral("/models/m%1.onnx").arg(i));
        const QStringList files = RecentFiles::list();
        QCOMPARE(files.size(), 8);
        QCOMPARE(files.first(), QStringLiteral("/models/m9.onnx"));
        QCOMPARE(files.last(), QStringLiteral("/models/m2.onnx"));
    }

    // The cluster, mesh and workload of a model's last search come back when it is
    // opened again, in a new window; another model keeps the defaults. The results say
    // what they were priced for.
    void searchChoicesAreRememberedPerModel()
    {
        const QString gpt2 = dataFile("gpt2.ts.stripped.onnx");
        {
            MainWindow window;
            window.show();
            window.openFile(gpt2);
            QTRY_VERIFY_WITH_TIMEOUT(window.session()->folded() != nullptr, kImportTimeoutMs);
            ClusterPanel* panel = window.clusterPanel();
            QVERIFY(panel->choosePreset(QStringLiteral("dgx-h100x1")));
            QVERIFY(panel->chooseMesh({2, 4}));
            panel->setBatch(8);
            panel->setSequence(512);
            panel->setTimeLimit(5);
            QSignalSpy finished(&window, &MainWindow::searchFinished);
            window.startSearch();
            QVERIFY(finished.wait(kImportTimeoutMs));
            const QString pricedFor = label(window, "searchWorkload");
            QVERIFY2(pricedFor.contains(QStringLiteral("batch 8")) && pricedFor.contains(QStringLiteral("512 tokens")),
                     qPrintable(pricedFor));
        }
        MainWindow window;
        window.show();
        window.openFile(dataFile("llama.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        QCOMPARE(window.clusterPanel()->presetBox()->currentText(), QStringLiteral("dgx-h100x2"));
        QCOMPARE(window.clusterPanel()->setup().workload.batch, 0);  // from the model
        window.openFile(gpt2);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), kImportTimeoutMs);
        const SearchSetup setup = window.clusterPanel()->setup();
        QCOMPARE(window.clusterPanel()->presetBox()->currentText(), QStringLiteral("dgx-h100x1"));
        QCOMPARE(setup.mesh, (std::vector<MeshAxis>{{"dp", 2}, {"tp", 4}}));
        QCOMPARE(setup.workload.batch, 8);
        QCOMPARE(setup.workload.sequence, 512);
        QCOMPARE(setup.options.timeLimitSeconds, 5.0);
    }

    // Help lists the shortcuts the menus really have, finds the README with the workflow,
    // and every cluster and workload control explains itself in a tooltip.
    void helpListsShortcutsAndControlsExplainThemselves()
    {
        MainWindow window;
        window.show();
        auto* shortcuts = window.findChild<QAction*>(QStringLiteral("showShortcuts"));
        QVERIFY(shortcuts);
        shortcuts->trigger();
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("shortcutsBox"));
        QVERIFY(box);
        for (const char* expected : {"Search &gt; Start Search", "F5", "File &gt; Open…", "Plan &gt; Export…"})
            QVERIFY2(box->text().contains(QString::fromUtf8(expected)), expected);
        QVERIFY(box->text().contains(window.startSearchAction()->shortcut().toString(QKeySequence::NativeText)));
        box->close();
        QCOMPARE(QFileInfo(ResourceLocator::readmePath()).absoluteFilePath(),
                 QFileInfo(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/../../README.md")).absoluteFilePath());

        int controls = 0;
        for (const QWidget* control : window.clusterPanel()->findChildren<QWidget*>()) {
            if (!qobject_cast<const QAbstractSpinBox*>(control) && !qobject_cast<const QComboBox*>(control) &&
                !qobject_cast<const QCheckBox*>(control))
                continue;
            ++controls;
            QVERIFY2(!control->toolTip().isEmpty(), control->metaObject()->className());
        }
        QVERIFY(controls >= 19);
    }

    void firstStartOpensBundledDefaultModel()
    {
        const QString bundled = ResourceLocator::defaultModelPath();
        QVERIFY2(!bundled.isEmpty(), "resources/models/default.onnx not found");
        MainWindow window;
        window.show();
        window.openAtStartup({});
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->model() != nullptr, kImportTimeoutMs);
        QCOMPARE(window.session()->model()->path, bundled);
        QCOMPARE(label(window, "opCountValue"), QStringLiteral("2,191"));
    }

    // A plan in the history of a model not on screen opens that model, then the plan in
    // the editor (the same record, priced for that model).
    void historyPlanOfAnotherModelOpensThatModel()
    {
        MainWindow window;
        window.show();
        window.openFile(dataFile("gpt2.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->folded() != nullptr, kImportTimeoutMs);
        window.workbench()->startFromExpert(false);  // Megatron-LM, recorded in the history
        const PlanRecordId record = window.workbench()->editor()->current().record;
        QVERIFY(record.isValid());
        const std::string gpt2Source = window.session()->folded()->graph().info().sourcePath;

        window.openFile(dataFile("bert.dynamo.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->folded() != nullptr &&
                                     window.session()->model()->path.endsWith(QStringLiteral("bert.dynamo.stripped.onnx")),
                                 kImportTimeoutMs);
        QVERIFY(!window.workbench()->editor()->current().candidate);

        HistoryPanel& history = *window.workbench()->historyPanel();
        history.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!history.isReading(), kImportTimeoutMs);
        const QModelIndex row = history.model()->indexOfPlan(record);
        QVERIFY(row.isValid());
        QVERIFY2(history.model()->data(row).toString().contains(QStringLiteral("gpt2.ts.stripped")),
                 qPrintable(history.model()->data(row).toString()));
        emit history.view()->doubleClicked(row);

        QTRY_VERIFY_WITH_TIMEOUT(window.session()->folded() != nullptr &&
                                     window.session()->model()->path.endsWith(QStringLiteral("gpt2.ts.stripped.onnx")),
                                 kImportTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.workbench()->editor()->current().candidate != nullptr, kImportTimeoutMs);
        QCOMPARE(window.workbench()->editor()->current().record, record);
        QCOMPARE(window.session()->folded()->graph().info().sourcePath, gpt2Source);
        QVERIFY(!window.findChild<QMessageBox*>(QStringLiteral("planErrorBox")));
    }

    // A later start opens the most recent file that is still there; a recent file that
    // was removed is passed over.
    void laterStartOpensTheMostRecentFile()
    {
        RecentFiles::add(dataFile("gpt2.ts.stripped.onnx"));
        RecentFiles::add(QStringLiteral("/no/such/dir/removed.onnx"));
        MainWindow window;
        window.show();
        window.openAtStartup({});
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->model() != nullptr, kImportTimeoutMs);
        QCOMPARE(QFileInfo(window.session()->model()->path).fileName(), QStringLiteral("gpt2.ts.stripped.onnx"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
