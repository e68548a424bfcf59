// Editing, comparing, exporting and the history browser through the real window on
// Llama-3-8B (two DGX-H100 nodes, mesh 2x8): a strategy applied through the edit panel
// re-costs to exactly CostModel::evaluate of the edited plan and undo brings the
// previous plan and price back; the compare view's rows are core's PlanDiff; the
// export dialog writes the exporter's bytes and a graph view saves SVG and PNG; a box
// selected in the graph picks the edit target; the history tree over a temporary
// database passes QAbstractItemModelTester, nests an edit under the plan it came from
// and re-costs a stale plan in one click; pin and complete keeps the edit; dropped plan
// files, Hugging Face tp_plans and torchtitan configs open, a broken one is reported naming the file.
#include "search/ClusterPanel.h"
#include "plans/ExportDialog.h"
#include "search/ExportedPlanPrice.h"
#include "fold/FoldedModel.h"
#include "graphview/GraphNodeItem.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewContent.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewPicture.h"
#include "graphview/GraphViewsPanel.h"
#include "history/HistoryPanel.h"
#include "history/HistoryRecorder.h"
#include "history/HistoryTreeModel.h"
#include "model/LoadedModel.h"
#include "model/ModelSession.h"
#include "windows/MainWindow.h"
#include "plans/PlanCompareView.h"
#include "search/PlanComparison.h"
#include "plans/PlanDiffModel.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanEditor.h"
#include "charts/BreakdownCharts.h"
#include "plans/PlanInspector.h"
#include "charts/PipelineTimeline.h"
#include "search/PlanPricing.h"
#include "plans/PlanWorkbench.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"
#include "search/SearchResultsPanel.h"
#include "search/StrategyChoices.h"
#include "plans/StrategyChoicesModel.h"
#include "plans/StrategyText.h"
#include "export/ExportFormat.h"
#include "export/HfTpPlanExport.h"
#include "export/HfTpPlanImport.h"
#include "export/PyTorchPlanExport.h"
#include "history/RecordsOf.h"
#include "history/HistoryStore.h"
#include "plan/ExpertPlans.h"
#include "target/StackRules.h"

#include "ActiveWindow.h"

#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalStackedBarSeries>
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QDropEvent>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>
#include <QPushButton>
#include <QPointer>
#include <QStatusBar>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QDir>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

using namespace tapestry;

class PlanWorkbenchTest : public QObject {
    Q_OBJECT

private:
    static constexpr int kTimeoutMs = 60000;
    QTemporaryDir temp_;
    std::unique_ptr<MainWindow> window_;

    PlanWorkbench& bench() { return *window_->workbench(); }
    PlanEditor& editor() { return *bench().editor(); }

    // The cost model the test prices plans with, independent of the window's.
    std::unique_ptr<PlanPricing> ownPricing(const std::vector<MeshAxis>& mesh)
    {
        return std::make_unique<PlanPricing>(window_->session()->folded(), window_->clusterPanel()->setup(),
                                             mesh);
    }

    // Starts from Megatron-LM through the panel, then applies the first other strategy
    // of the MLP's down projection through the choices table; returns its row.
    void startAndEdit(int& appliedRow)
    {
        PlanEditPanel& panel = *bench().editPanel();
        panel.expertBox()->setCurrentIndex(0);
        QTest::mouseClick(panel.startButton(), Qt::LeftButton);
        QVERIFY(editor().current().candidate);
        QCOMPARE(editor().current().candidate->plan.mesh.size(), std::size_t{2});

        const std::vector<EditTarget>& targets = editor().targets();
        const auto target = std::find_if(targets.begin(), targets.end(), [](const EditTarget& t) {
            return t.name.find("mlp/down_proj") != std::string::npos && t.nodes.size() == 32;
        });
        QVERIFY(target != targets.end());
        QVERIFY(panel.selectTarget(QString::fromStdString(target->name)));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isPricing() && panel.choicesModel()->rowCount() > 1, kTimeoutMs);
        QCOMPARE(panel.choicesModel()->choices()->target.name, target->name);
        // The splits under a header naming the axes; the tooltip names each axis.
        const QModelIndex strategy = panel.choicesModel()->index(0, StrategyChoicesModel::StrategyColumn);
        const NodeStrategy& first = panel.choicesModel()->choices()->choices.front().strategy;
        QCOMPARE(first.axes.size(), std::size_t{2});
        QCOMPARE(strategy.data().toString(), splitName(first.axes[0]) + QStringLiteral(", ") + splitName(first.axes[1]));
        QCOMPARE(strategy.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("dp: %1, tp: %2").arg(splitName(first.axes[0]), splitName(first.axes[1])));
        QCOMPARE(panel.choicesModel()->headerData(StrategyChoicesModel::StrategyColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Strategy (dp, tp)"));
        appliedRow = -1;
        for (int row = 0; row < panel.choicesModel()->rowCount() && appliedRow < 0; ++row) {
            if (!panel.choicesModel()->choices()->choices[static_cast<std::size_t>(row)].current)
                appliedRow = row;
        }
        QVERIFY(appliedRow >= 0);
        panel.choicesView()->selectRow(appliedRow);
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(panel.applyButton(), Qt::LeftButton);
        qInfo("edit re-costed, recorded and shown in %lld ms", clock.elapsed());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(temp_.isValid());
        // The window records in the history the CLI uses: a temporary one here.
        qputenv("TAPESTRY_HISTORY", temp_.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());

        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(test::activeAgain(*window_));  // Ctrl+Z and friends need the active window
        window_->openFile(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/llama3_8b_shape.dynamo.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->session()->folded() != nullptr, kTimeoutMs);
        ClusterPanel* panel = window_->clusterPanel();
        QVERIFY(panel->choosePreset(QStringLiteral("dgx-h100x2")));
        QVERIFY(panel->chooseMesh({2, 8}));
        panel->setBatch(16);
        panel->setSequence(2048);
        panel->setTimeLimit(10);  // per integer program of a completion: short on a busy machine
    }

    void cleanupTestCase() { window_.reset(); }

    void editRecostsExactlyAndUndoRestores()
    {
        int row = -1;
        startAndEdit(row);
        const std::shared_ptr<const PlanCandidate> edited = editor().current().candidate;
        QUndoStack* stack = editor().undoStack();
        QCOMPARE(stack->count(), 1);

        // The start is Megatron-LM priced by the cost model.
        const std::vector<MeshAxis> mesh = edited->plan.mesh;
        const std::unique_ptr<PlanPricing> costs = ownPricing(mesh);
        const Plan megatron = makeExpertPlan(ExpertPlanKind::Megatron, costs->folded()->coarse, mesh);
        const PlanEvaluation before = costs->costs().evaluate(megatron);

        // The edit: the chosen strategy on all 32 down projections, nothing else changed.
        const StrategyChoicesModel& choices = *bench().editPanel()->choicesModel();
        const StrategyChoices::Choice& choice = choices.choices()->choices[static_cast<std::size_t>(row)];
        const Plan expected = withStrategy(megatron, choices.choices()->target, choice.strategy);
        QCOMPARE(edited->plan.strategies, expected.strategies);
        QCOMPARE(edited->plan.origin, PlanOrigin::Edit);
        QCOMPARE(edited->plan.parent, megatron.name);
        QCOMPARE(edited->plan.pins, std::vector<std::string>{choices.choices()->target.name});
        const PlanEvaluation after = costs->costs().evaluate(expected);
        QCOMPARE(edited->stepSeconds(), after.total.time.stepSeconds());
        QCOMPARE(edited->memoryBytes(), after.total.memory.total());
        // What the table promised is what the edit costs.
        QCOMPARE(choice.stepSeconds, after.total.time.stepSeconds());
        QCOMPARE(choice.memoryBytes, after.total.memory.total());
        // The inspector and the graph views show the edited plan.
        QCOMPARE(window_->planInspector()->candidate(), edited);
        // Its step chart's whole-step bar (the top one) stacks parts that add up to the
        // step; communication hidden under compute is a bar of its own beside it.
        const QList<QAbstractSeries*> series = window_->planInspector()->charts()->timeChart()->chart()->series();
        QVERIFY(!series.isEmpty());
        const auto* stacked = qobject_cast<QHorizontalStackedBarSeries*>(series.front());
        QVERIFY(stacked);
        double stackedMs = 0;
        for (const QBarSet* set : stacked->barSets())
            stackedMs += set->at(set->count() - 1);
        const TimeBreakdown& time = after.total.time;
        QCOMPARE_LE(std::abs(stackedMs - time.stepSeconds() * 1e3), 1e-9 * stackedMs);
        QCOMPARE(series.size(), time.hiddenSeconds > 0 ? 2 : 1);
        QVERIFY(window_->findChild<QLabel*>(QStringLiteral("inspectorTitle"))
                    ->toolTip()
                    .contains(QStringLiteral("Priced for batch 16 × 2,048 tokens, no micro-batches")));

        // Ctrl+Z brings Megatron-LM back with its price; Ctrl+Shift+Z the edit again.
        QVERIFY(test::activeAgain(*window_));
        QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(editor().current().candidate != edited);
        QCOMPARE(editor().current().candidate->plan.strategies, megatron.strategies);
        QCOMPARE(editor().current().candidate->stepSeconds(), before.total.time.stepSeconds());
        QCOMPARE(window_->planInspector()->candidate()->stepSeconds(), before.total.time.stepSeconds());
        QVERIFY(test::activeAgain(*window_));
        QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(editor().current().candidate, edited);
    }

    void compareRowsArePlanDiff()
    {
        int row = -1;
        startAndEdit(row);
        const std::shared_ptr<const PlanCandidate> edited = editor().current().candidate;
        window_->workbench()->compareAction()->trigger();

        PlanCompareView& view = *bench().compareView();
        const PlanDiffModel& model = *view.diffModel();
        QVERIFY(model.comparison());
        QCOMPARE(model.comparison()->b, edited);
        const std::shared_ptr<const PlanCandidate> origin = model.comparison()->a;
        QCOMPARE(origin->plan.name, std::string("megatron"));

        PlanDocument a;
        a.plan = origin->plan;
        a.cost = costSummaryOf(origin->evaluation);
        PlanDocument b;
        b.plan = edited->plan;
        b.cost = costSummaryOf(edited->evaluation);
        const FoldedModel& folded = *window_->session()->folded();
        const PlanDiff diff = diffPlans(a, b, folded.coarse);
        QCOMPARE(diff.changes.size(), std::size_t{32});  // one down projection per layer
        // One edit of the decoder layer's position: one row for the 32, its deltas summed.
        QCOMPARE(model.rowCount(), 1);
        const NodeStrategyChange& change = diff.changes.front();
        const std::vector<EditTarget>& targets = editor().targets();
        const auto position = std::find_if(targets.begin(), targets.end(), [](const EditTarget& t) {
            return t.name.find("mlp/down_proj") != std::string::npos && t.nodes.size() == 32;
        });
        QVERIFY(position != targets.end());
        QCOMPARE(model.index(0, PlanDiffModel::NodeColumn).data().toString(),
                 QString::fromStdString(position->name) + QStringLiteral(" ×32"));
        QCOMPARE(model.index(0, PlanDiffModel::StrategyAColumn).data().toString(), strategyText(a.plan.mesh, change.before));
        QCOMPARE(model.index(0, PlanDiffModel::StrategyBColumn).data().toString(), strategyText(b.plan.mesh, change.after));
        double stepDelta = 0;
        for (const NodeStrategyChange& each : diff.changes) {
            QCOMPARE(each.after, change.after);
            stepDelta += edited->breakdowns().perNode[each.node.index()].time.stepSeconds() -
                         origin->breakdowns().perNode[each.node.index()].time.stepSeconds();
        }
        QVERIFY(qAbs(model.index(0, PlanDiffModel::StepDeltaColumn).data(PlanDiffModel::SortRole).toDouble() - stepDelta) <=
                1e-12);
        QVERIFY(diff.costDelta);
        QVERIFY(view.totals()->text().contains(QStringLiteral("32 node")));
        // Both drawings highlight the one decoder-layer family that differs.
        QTRY_COMPARE_WITH_TIMEOUT(view.highlighted(0), 1, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(view.highlighted(1), 1, kTimeoutMs);
    }

    // "Pin and complete the rest" searches again with the edited position fixed: the
    // result keeps the edit on all 32 layers, is priced by the cost model and recorded as
    // a child of the edit.
    void completionKeepsThePinnedEdit()
    {
        int row = -1;
        startAndEdit(row);
        const PlanVersion edited = editor().current();
        const std::string pinned = edited.candidate->plan.pins.front();
        const auto target = std::find_if(editor().targets().begin(), editor().targets().end(),
                                         [&](const EditTarget& t) { return t.name == pinned; });
        QVERIFY(target != editor().targets().end());
        const NodeStrategy strategy = edited.candidate->plan.strategy(target->nodes.front());

        QSignalSpy finished(&editor(), &PlanEditor::completionFinished);
        QTest::mouseClick(bench().editPanel()->completeButton(), Qt::LeftButton);
        QVERIFY(editor().isCompleting());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kTimeoutMs);
        const PlanVersion completed = editor().current();
        QVERIFY2(completed.candidate != edited.candidate, qPrintable(finished.front().front().toString()));
        QCOMPARE(completed.candidate->plan.origin, PlanOrigin::Search);
        QCOMPARE(completed.candidate->plan.pins, edited.candidate->plan.pins);
        for (const CoarseNodeId node : target->nodes)
            QVERIFY(completed.candidate->plan.strategy(node) == strategy);
        const std::unique_ptr<PlanPricing> costs = ownPricing(completed.candidate->plan.mesh);
        QCOMPARE(completed.candidate->stepSeconds(),
                 costs->costs().evaluate(completed.candidate->plan).total.time.stepSeconds());
        QCOMPARE(bench().recorder()->store()->plan(completed.record).parent, edited.record);
        // Undo goes back to the edit.
        editor().undoStack()->undo();
        QCOMPARE(editor().current().candidate, edited.candidate);
    }

    // Through Plan > Export: each format proposes a file name of its own, an existing
    // file is kept until the user agrees to replace it, and the status bar says what
    // was written where.
    void exportNamesTheFormatAndAsksBeforeReplacing()
    {
        QVERIFY(editor().current().candidate);
        bench().exportAction()->trigger();
        auto* dialog = window_->findChild<ExportDialog*>(QStringLiteral("exportDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto* formats = dialog->findChild<QComboBox*>(QStringLiteral("exportFormat"));
        QStringList names;
        for (int i = 0; i < formats->count(); ++i) {
            formats->setCurrentIndex(i);
            names << QFileInfo(dialog->path()).fileName();
        }
        // Named after the model, the mesh and the plan: two plans of one search differ.
        const QString plan = QStringLiteral("llama3_8b_shape.dynamo.stripped-dp2xtp8-") +
                             QString::fromStdString(editor().current().candidate->plan.name).replace(u'/', u'-');
        QVERIFY2(names.contains(plan + QStringLiteral("-hf-tp_plan.json")), qPrintable(names.join(u' ')));
        QVERIFY(names.contains(plan + QStringLiteral("-hf-tp_plan.py")));
        QVERIFY(names.contains(plan + QStringLiteral("-dtensor.py")));
        QVERIFY(names.contains(plan + QStringLiteral("-tapestry.json")));
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());  // no two formats share a name

        dialog->setFormat(ExportFormat::HfJson);
        const QString file = temp_.filePath(QFileInfo(dialog->path()).fileName());
        QFile existing(file);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("keep me\n");
        existing.close();
        dialog->setPath(file);
        QSignalSpy finished(dialog, &ExportDialog::exportFinished);
        QPushButton* exportButton = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QPointer<QMessageBox> ask = dialog->findChild<QMessageBox*>(QStringLiteral("replaceFileBox"));
        QVERIFY(ask);
        QTRY_VERIFY(ask->isVisible());
        QVERIFY(ask->text().contains(QDir::toNativeSeparators(file)));
        QTest::mouseClick(ask->button(QMessageBox::Cancel), Qt::LeftButton);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QCOMPARE(existing.readAll(), QByteArray("keep me\n"));
        existing.close();
        QVERIFY(dialog->isVisible());
        QTRY_VERIFY(!ask);  // the box is gone

        QTest::mouseClick(exportButton, Qt::LeftButton);
        ask = dialog->findChild<QMessageBox*>(QStringLiteral("replaceFileBox"));
        QVERIFY(ask);
        QTRY_VERIFY(ask->isVisible());
        QPointer<ExportDialog> alive(dialog);
        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!alive, kTimeoutMs);  // written and closed
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QVERIFY(existing.readAll().startsWith("{"));
        const QString status = window_->statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("Hugging Face tp_plan (JSON)")) &&
                     status.contains(QDir::toNativeSeparators(file)),
                 qPrintable(status));
    }

    void exportDialogWritesTheExportersBytes()
    {
        QVERIFY(editor().current().candidate);
        const std::shared_ptr<const FoldedModel> folded = window_->session()->folded();
        const PlanDocument document = editor().pricing()->document(*editor().current().candidate);

        ExportDialog dialog(folded, document, GraphViewKind::Folded, std::nullopt);
        dialog.setFormat(ExportFormat::PyTorch);
        const QString file = temp_.filePath(QStringLiteral("plan.py"));
        dialog.setPath(file);
        QSignalSpy written(&dialog, &ExportDialog::exportFinished);
        dialog.accept();
        QVERIFY(dialog.isExporting());  // in the background: the window keeps painting
        QVERIFY(written.wait(kTimeoutMs));
        QCOMPARE(written.at(0).at(0).toBool(), true);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QFile pyTorchFile(file);
        QVERIFY(pyTorchFile.open(QIODevice::ReadOnly));
        QCOMPARE(pyTorchFile.readAll().toStdString(),
                 exportPyTorchPlan(*folded, document));

        ExportDialog json(folded, document, GraphViewKind::Folded, std::nullopt);
        json.setFormat(ExportFormat::PlanJson);
        const QString planFile = temp_.filePath(QStringLiteral("plan.json"));
        json.setPath(planFile);
        QSignalSpy jsonWritten(&json, &ExportDialog::exportFinished);
        json.accept();
        QVERIFY(jsonWritten.wait(kTimeoutMs));
        QCOMPARE(jsonWritten.at(0).at(0).toBool(), true);
        const PlanDocument reread = loadPlanFile(planFile.toStdString(), folded->coarse, folded->families);
        QCOMPARE(reread.plan.strategies, document.plan.strategies);

        // With the plan's cluster, as `tapestry-cli export --cluster`: a ZeRO-1 plan written
        // for torchtitan (which has no ZeRO 1) is headed by what the file runs instead, priced,
        // and the status bar says so.
        PlanDocument zero1 = document;
        zero1.workload.zeroStage = 1;
        const Cluster& cluster = editor().pricing()->setup().cluster;
        ExportDialog titan(folded, zero1, GraphViewKind::Folded, cluster);
        titan.setFormat(ExportFormat::TorchTitan);
        const QString titanFile = temp_.filePath(QStringLiteral("titan.py"));
        titan.setPath(titanFile);
        QSignalSpy titanMessage(&titan, &ExportDialog::written);
        titan.accept();
        QTRY_COMPARE_WITH_TIMEOUT(titanMessage.size(), 1, kTimeoutMs);
        QVERIFY2(titanMessage.at(0).at(0).toString().contains(
                     QStringLiteral("Not the plan Tapestry priced: torchtitan does not run it as is.")),
                 qPrintable(titanMessage.at(0).at(0).toString()));
        QFile titanText(titanFile);
        QVERIFY(titanText.open(QIODevice::ReadOnly));
        const std::string cli = planExportText(ExportFormat::TorchTitan, folded, zero1, {}, cluster).text;
        QCOMPARE(titanText.readAll().toStdString(), cli);
        QVERIFY(cli.starts_with("# Not the plan Tapestry priced: torchtitan does not run it as is"));

        // A folder that does not exist: the dialog stays and names the file.
        ExportDialog failing(folded, document, GraphViewKind::Folded, std::nullopt);
        failing.setPath(temp_.filePath(QStringLiteral("missing/plan.json")));
        QSignalSpy failed(&failing, &ExportDialog::exportFinished);
        failing.accept();
        QVERIFY(failed.wait(kTimeoutMs));
        QCOMPARE(failed.at(0).at(0).toBool(), false);
        QVERIFY(!failing.isExporting());
        QCOMPARE(failing.result(), int(QDialog::Rejected));  // still open: nothing was accepted
        QVERIFY(failing.problemLabel()->text().contains(QStringLiteral("missing")));

        // The drawing on screen, as every graph view's Save button writes it.
        GraphView* view = window_->graphViews()->pane(GraphViewKind::Folded)->view();
        QTRY_VERIFY_WITH_TIMEOUT(!view->nodeItems().empty(), kTimeoutMs);
        const QString svg = temp_.filePath(QStringLiteral("view.svg"));
        const QString png = temp_.filePath(QStringLiteral("view.png"));
        QVERIFY(saveScenePicture(*view->scene(), svg));
        QVERIFY(saveScenePicture(*view->scene(), png));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("model/layers.#"));  // the block's label is text, not pixels
        QFile pngFile(png);
        QVERIFY(pngFile.open(QIODevice::ReadOnly));
        QVERIFY(pngFile.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    }

    void selectingABlockPicksItsFirstAnchor()
    {
        QVERIFY(editor().current().candidate);
        GraphViewPane* pane = window_->graphViews()->pane(GraphViewKind::Folded);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->view()->nodeItems().empty(), kTimeoutMs);
        const FoldedModel& folded = *window_->session()->folded();
        for (GraphNodeItem* item : pane->view()->nodeItems()) {
            const ViewNodeRef* ref = pane->view()->nodeRef(item->index());
            QVERIFY(ref);
            if (ref->kind != ViewNodeRef::Kind::Family)
                continue;
            item->setSelected(true);
            const CoarseNodeId anchor = folded.families.family(FamilyId{ref->index}).anchors.front();
            const QString name = bench().editPanel()->targetBox()->currentText();
            const auto target = std::find_if(editor().targets().begin(), editor().targets().end(),
                                             [&](const EditTarget& t) { return t.name == name.toStdString(); });
            QVERIFY(target != editor().targets().end());
            QVERIFY(std::find(target->nodes.begin(), target->nodes.end(), anchor) != target->nodes.end());
            QVERIFY(name.contains(u'#'));  // the position in every decoder layer
            return;
        }
        QFAIL("no repeated block in the folded view");
    }

    // A plan made for an earlier version of the model is flagged stale in the tree; one
    // click prices it again for the model and cluster on screen, as a child of it.
    void staleReCostsInOneClick()
    {
        HistoryRecorder& recorder = *bench().recorder();
        HistoryStore& store = *recorder.store();
        const std::shared_ptr<const FoldedModel> folded = window_->session()->folded();
        ModelRecord model = modelRecordOf(folded->graph());
        const CurrentInputs current{model.path, model.fingerprint, window_->clusterPanel()->setup().cluster.name, {}};
        model.fingerprint = "an earlier export";
        const ClusterRecord cluster{{}, "dgx-h100x2", "{}"};
        const std::vector<MeshAxis> mesh{{"dp", 2}, {"tp", 8}};
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, folded->coarse, mesh);
        document.workload = window_->clusterPanel()->setup().workload;
        PlanRecord record;
        record.name = "old megatron";
        record.origin = PlanOrigin::Expert;
        record.meshAxes = mesh;
        record.json = planToJson(document, folded->coarse, folded->families);
        const PlanRecordId old = store.addPlan(model, cluster, record);
        std::vector<PlanRecordId> stale = store.markStalePlans(
            {current.modelPath, current.modelFingerprint, cluster.name, cluster.description});
        QVERIFY(std::find(stale.begin(), stale.end(), old) != stale.end());

        HistoryPanel& panel = *bench().historyPanel();
        panel.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isReading(), kTimeoutMs);
        const QModelIndex row = panel.model()->indexOfPlan(old);
        QVERIFY(row.isValid());
        QVERIFY(panel.model()->data(row, HistoryTreeModel::StaleRole).toBool());
        panel.view()->setCurrentIndex(row);
        auto* recost = panel.findChild<QPushButton*>(QStringLiteral("historyRecost"));
        QVERIFY(recost && recost->isEnabled());
        QTest::mouseClick(recost, Qt::LeftButton);

        const std::vector<PlanRecordId> children = store.children(old);
        QCOMPARE(children.size(), std::size_t{1});
        const PlanRecord recosted = store.plan(children.front());
        QVERIFY(!recosted.stale);
        QVERIFY(recosted.cost);
        const std::unique_ptr<PlanPricing> costs = ownPricing(mesh);
        QCOMPARE(recosted.cost->stepSeconds, costs->costs().evaluate(document.plan).total.time.stepSeconds());
    }

    void historyTreeShowsLineage()
    {
        // A database of its own: one run with two plans, an edit of the first, and a
        // plan made outside any run.
        const std::filesystem::path file = temp_.filePath(QStringLiteral("tree.sqlite")).toStdString();
        PlanRecordId first;
        {
            HistoryStore store(file);
            const ModelRecord model{{}, "f1", "/models/llama.onnx", 10, 100, "test"};
            const ClusterRecord cluster{{}, "dgx-h100x2", "{}"};
            RunSettings settings;
            settings.command = "search";
            settings.mode = "tap";
            settings.target = "torchtitan";
            const RunId run = store.beginRun(model, cluster, settings);
            PlanRecord plan;
            plan.json = "{}";
            plan.meshAxes = {{"dp", 2}, {"tp", 8}};
            plan.cost = PlanCostSummary{0.5, 0.4, 0.1, 30e9, 80e9};
            plan.name = "best";
            PlanRecord alternative = plan;
            alternative.name = "alternative";
            const std::vector<PlanRecordId> ids = store.finishRun(run, RunStatus::Finished, "done", {plan, alternative});
            first = ids.front();
            PlanRecord edit = plan;
            edit.name = "best/edit-1";
            edit.origin = PlanOrigin::Edit;
            edit.parent = first;
            (void)store.addPlan(model, cluster, edit);
            PlanRecord loose = plan;
            loose.name = "megatron";
            loose.origin = PlanOrigin::Expert;
            (void)store.addPlan(model, cluster, loose);
        }
        HistoryTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(std::make_shared<const HistorySnapshot>(HistorySnapshot::read(file)));
        QCOMPARE(model.rowCount(), 2);  // the run, then the plans outside runs
        const QModelIndex run = model.index(0, 0);
        // The stack the run searched for (history schema 5).
        QVERIFY2(model.data(run).toString().startsWith(QStringLiteral("Run 1: search tap for torchtitan of ")),
                 qPrintable(model.data(run).toString()));
        QCOMPARE(model.rowCount(run), 2);
        const QModelIndex best = model.index(0, 0, run);
        QCOMPARE(model.data(best, HistoryTreeModel::PlanIdRole).toUInt(), first.value());
        QCOMPARE(model.rowCount(best), 1);
        // Under the run, whose row names the model: the id and the plan's name (the state
        // and mesh have columns); the whole name in the tooltip.
        QCOMPARE(model.data(best).toString(), QStringLiteral("#1 best"));
        QCOMPARE(model.data(model.index(0, 0, best)).toString(), QStringLiteral("#3 best/edit-1"));
        QCOMPARE(model.data(model.index(0, 0, best), Qt::ToolTipRole).toString(),
                 QStringLiteral("#3 llama dp2×tp8, edited: best/edit-1"));
        const QModelIndex others = model.index(1, 0);
        QCOMPARE(model.rowCount(others), 1);
        QCOMPARE(model.data(model.index(0, 0, others)).toString(), QStringLiteral("#4 llama dp2×tp8, expert: megatron"));
        QCOMPARE(model.parent(model.index(0, 0, best)), best);

        // The window's own history: the edits of the tests above sit under the Megatron
        // plan they started from.
        HistoryPanel& panel = *bench().historyPanel();
        panel.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isReading(), kTimeoutMs);
        QAbstractItemModelTester windowTester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const PlanRecordId edited = editor().current().record;
        QVERIFY(edited.isValid());
        const QModelIndex editRow = panel.model()->indexOfPlan(edited);
        QVERIFY(editRow.isValid());
        const PlanRecord* parent = panel.model()->planAt(editRow.parent());
        QVERIFY(parent);
        QCOMPARE(parent->name, std::string("megatron"));
        QCOMPARE(parent->origin, PlanOrigin::Expert);
    }

    // A plan file dropped on the window opens for the model on screen; a broken one is
    // reported in a box that names the file, and the plan on screen stays.
    void planFilesOpenOrSayWhy()
    {
        const QString good = temp_.filePath(QStringLiteral("plan.json"));  // written by the export test
        QVERIFY(QFile::exists(good));
        const QString bad = temp_.filePath(QStringLiteral("broken-plan.json"));
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"name\": \"x\", \"strategies\": 3}");
        }
        const FoldedModel& folded = *window_->session()->folded();
        PlanDocument expected = loadPlanFile(good.toStdString(), folded.coarse, folded.families);
        // Another plan first, so that opening the file visibly changes it.
        bench().startFromExpert(true);
        QVERIFY(editor().current().candidate->plan.strategies != expected.plan.strategies);
        const auto drop = [this](const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            const QPoint center = window_->rect().center();
            QDragEnterEvent enter(center, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(window_.get(), &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent dropped(QPointF(center), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(window_.get(), &dropped);
        };
        drop(good);
        QCOMPARE(editor().current().candidate->plan.strategies, expected.plan.strategies);
        QCOMPARE(editor().current().candidate->plan.origin, PlanOrigin::Edit);

        // A Hugging Face tp_plan (here Megatron-LM's, exported) becomes the plan to edit.
        const std::vector<MeshAxis> mesh{{"dp", 2}, {"tp", 8}};
        const Plan megatron = makeExpertPlan(ExpertPlanKind::Megatron, folded.coarse, mesh);
        const std::string tpPlan =
            exportHfTpPlanJson(folded.graph(), folded.coarse, folded.families, megatron, HfPlanKeys::Model);
        const QString hf = temp_.filePath(QStringLiteral("tp_plan.json"));
        {
            QFile file(hf);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(tpPlan.data(), static_cast<qint64>(tpPlan.size()));
        }
        drop(hf);
        const ImportedPlan imported =
            planFromHfTpPlan(parseHfTpPlan(tpPlan, "tp_plan.json"), folded.graph(), folded.coarse, mesh);
        QCOMPARE(editor().current().candidate->plan.origin, PlanOrigin::Import);
        QCOMPARE(editor().current().candidate->plan.strategies, imported.plan.strategies);
        QVERIFY(editor().current().record.isValid());

        // A torchtitan config: Megatron-LM's layout, pipelined at the file's split point, on
        // the panel's 16 GPUs (data parallel 16 / (2 x 8) = 1).
        const QString titan = temp_.filePath(QStringLiteral("llama.toml"));
        {
            QFile file(titan);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("[parallelism]\ntensor_parallel_degree = 8\npipeline_parallel_degree = 2\n"
                       "pipeline_parallel_split_points = [\"layers.16\"]\n"
                       "[activation_checkpoint]\nmode = \"full\"\n"
                       "[training]\nlocal_batch_size = 8\nglobal_batch_size = 16\nseq_len = 2048\n");
        }
        drop(titan);
        const Plan& opened = editor().current().candidate->plan;
        QCOMPARE(opened.origin, PlanOrigin::Import);
        QCOMPARE(opened.pipeline.stages, 2);
        QCOMPARE(opened.pipeline.chunkStarts, (std::vector<std::size_t>{0, 16}));
        QCOMPARE(opened.strategies,
                 makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, folded.coarse, {{"dp", 1}, {"tp", 8}}).strategies);
        // An ONNX export (export --format onnx: the model with the plan file in its
        // metadata) of data parallelism over [2, 8] opens as that plan, not as a model; the
        // model on screen stays.
        PlanDocument dataParallel;
        dataParallel.plan = makeExpertPlan(ExpertPlanKind::DataParallel, folded.coarse, mesh);
        dataParallel.modelFingerprint = folded.fingerprint;
        const std::string exported = renderExport(ExportFormat::Onnx, folded, dataParallel, {});
        const QString onnx = temp_.filePath(QStringLiteral("llama-dp.onnx"));
        {
            QFile file(onnx);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(exported.data(), static_cast<qint64>(exported.size()));
        }
        const std::shared_ptr<const FoldedModel> onScreen = window_->session()->folded();
        drop(onnx);
        QCOMPARE(editor().current().candidate->plan.mesh, mesh);
        QCOMPARE(editor().current().candidate->plan.strategies, dataParallel.plan.strategies);
        QCOMPARE(window_->session()->folded(), onScreen);
        const std::shared_ptr<const PlanCandidate> before = editor().current().candidate;

        // A text file named .onnx is neither a plan nor a model: opened as a plan, the box
        // names it.
        const QString fake = temp_.filePath(QStringLiteral("notes.onnx"));
        {
            QFile file(fake);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"name\": \"x\"}");
        }
        bench().openPlanFile(fake);
        QMessageBox* notOnnx = nullptr;
        QTRY_VERIFY((notOnnx = window_->findChild<QMessageBox*>(QStringLiteral("planErrorBox"))) != nullptr);
        QVERIFY2(notOnnx->text().contains(QStringLiteral("notes.onnx")) &&
                     notOnnx->text().contains(QStringLiteral("is not an ONNX model")),
                 qPrintable(notOnnx->text()));
        delete notOnnx;
        QCOMPARE(editor().current().candidate, before);

        drop(bad);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window_->findChild<QMessageBox*>(QStringLiteral("planErrorBox"))) != nullptr);
        QVERIFY2(box->text().contains(QStringLiteral("broken-plan.json")), qPrintable(box->text()));
        box->close();
        QCOMPARE(editor().current().candidate, before);
    }

    // The search chooses the micro-batch on a pipelined mesh; the editor prices the best
    // plan's strategies with it (and its other techniques), so that the current row
    // costs what the search said.
    void editorPricesWithTheSearchedMicroBatch()
    {
        ClusterPanel* panel = window_->clusterPanel();
        QVERIFY(panel->chooseMeshText(QStringLiteral("pp=2,dp=1,tp=8")));
        window_->startSearch();
        QTRY_VERIFY_WITH_TIMEOUT(!window_->isSearching(), kTimeoutMs);
        const std::shared_ptr<const PlanCandidate> best = window_->searchResults()->model()->results()->best();
        QVERIFY(best);
        QVERIFY(best->workload.microBatch > 0);
        QTRY_COMPARE_WITH_TIMEOUT(editor().current().candidate, best, kTimeoutMs);
        PlanEditPanel& edit = *bench().editPanel();
        QVERIFY(edit.selectTarget(QString::fromStdString(editor().targets().front().name)));
        QTRY_VERIFY_WITH_TIMEOUT(!edit.isPricing() && edit.choicesModel()->rowCount() > 1, kTimeoutMs);
        QCOMPARE(edit.choicesModel()->choices()->baseStepSeconds, best->stepSeconds());
        QCOMPARE(edit.choicesModel()->choices()->baseMemoryBytes, best->memoryBytes());
        QVERIFY(panel->chooseMesh({2, 8}));
    }

    // On a pipelined mesh the expert plan covers one stage's mesh (dp x tp) and runs as
    // that many stages: the inspector's schedule tab opens for it.
    void expertStartOnAPipelinedMesh()
    {
        ClusterPanel* panel = window_->clusterPanel();
        QVERIFY(panel->chooseMeshText(QStringLiteral("pp=2,dp=1,tp=8")));
        bench().startFromExpert(false);
        const std::shared_ptr<const PlanCandidate> candidate = editor().current().candidate;
        QVERIFY(candidate);
        QCOMPARE(candidate->plan.mesh, (std::vector<MeshAxis>{{"dp", 1}, {"tp", 8}}));
        QCOMPARE(candidate->plan.pipeline.stages, 2);
        QCOMPARE(candidate->evaluation.stages.size(), std::size_t{2});
        QVERIFY(window_->planInspector()->timeline()->hasPipeline());
        QVERIFY(window_->planInspector()->tabs()->isTabEnabled(1));
        QVERIFY(panel->chooseMesh({2, 8}));
    }

    // A plan priced with a stack's implementations keeps saying so, and its price, when
    // it is opened from its file, edited, and reopened from the history: Megatron-LM's
    // layout priced with torchtitan's implementations (FSDP2, its recomputation policy)
    // while the panel targets Megatron-LM.
    void implementationsSurviveFilesEditsAndTheHistory()
    {
        const std::shared_ptr<const FoldedModel> folded = window_->session()->folded();
        QCOMPARE(window_->clusterPanel()->setup().options.stack, TrainingStack::Megatron);
        const std::vector<MeshAxis> mesh{{"dp", 2}, {"tp", 8}};
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, folded->coarse, mesh);
        document.plan.name = "torchtitan-layout";
        document.workload = withStackImplementations(window_->clusterPanel()->setup().workload, TrainingStack::TorchTitan);
        document.workload.zeroStage = 2;
        document.implementations = TrainingStack::TorchTitan;
        const QString file = temp_.filePath(QStringLiteral("torchtitan-layout.json"));
        savePlanFile(file.toStdString(), document, folded->coarse, folded->families);
        SearchSetup setup = window_->clusterPanel()->setup();
        setup.workload = document.workload;
        const PlanPricing own(folded, setup, mesh);
        const auto label = [this] {
            return window_->findChild<QLabel*>(QStringLiteral("editTitle"))->text();
        };
        const QString priced = QStringLiteral("priced with torchtitan's implementations");

        bench().openPlanFile(file);
        std::shared_ptr<const PlanCandidate> opened = editor().current().candidate;
        QCOMPARE(opened->plan.name, document.plan.name);
        QCOMPARE(opened->implementations, TrainingStack::TorchTitan);
        QCOMPARE(opened->stepSeconds(), own.costs().evaluate(document.plan).total.time.stepSeconds());
        QVERIFY2(label().contains(priced), qPrintable(label()));

        // An edit is priced with the same workload, so with the same implementations.
        const std::vector<EditTarget>& targets = editor().targets();
        const auto target = std::find_if(targets.begin(), targets.end(), [](const EditTarget& t) {
            return t.name.find("mlp/down_proj") != std::string::npos && t.nodes.size() == 32;
        });
        QVERIFY(target != targets.end());
        NodeStrategy replicated;
        replicated.axes.push_back(AxisSplit::Batch);
        replicated.axes.push_back(AxisSplit::None);
        editor().setStrategy(*target, replicated);
        const std::shared_ptr<const PlanCandidate> edited = editor().current().candidate;
        QVERIFY(edited != opened);
        QCOMPARE(edited->plan.name, std::string("torchtitan-layout/edit-1"));
        QCOMPARE(edited->implementations, TrainingStack::TorchTitan);
        QCOMPARE(edited->stepSeconds(), own.costs().evaluate(edited->plan).total.time.stepSeconds());
        QVERIFY2(label().contains(priced), qPrintable(label()));

        // The history keeps the edit with its implementations; reopened, it prices as before.
        const PlanRecordId record = editor().current().record;
        QVERIFY(record.isValid());
        emit bench().historyPanel()->openRequested(bench().recorder()->store()->plan(record));
        const std::shared_ptr<const PlanCandidate> reopened = editor().current().candidate;
        QVERIFY(reopened != edited);
        QCOMPARE(reopened->plan.strategies, edited->plan.strategies);
        QCOMPARE(reopened->implementations, TrainingStack::TorchTitan);
        QCOMPARE(reopened->stepSeconds(), edited->stepSeconds());
        QCOMPARE(reopened->memoryBytes(), edited->memoryBytes());
        QVERIFY2(label().contains(priced), qPrintable(label()));
    }

    // The panel's workload is checked against the plan it starts, as evaluate checks its
    // own: 17 sequences do not split over the 2 data-parallel ranks of 2 x 8.
    void aPanelWorkloadThatContradictsThePlanIsRefused()
    {
        ClusterPanel* panel = window_->clusterPanel();
        QVERIFY(panel->chooseMesh({2, 8}));
        auto* batch = panel->findChild<QSpinBox*>(QStringLiteral("batchSize"));
        QVERIFY(batch);
        const int before = batch->value();
        batch->setValue(17);
        const std::shared_ptr<const PlanCandidate> shown = editor().current().candidate;
        bench().startFromExpert(false);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window_->findChild<QMessageBox*>(QStringLiteral("planErrorBox"))) != nullptr);
        QVERIFY2(box->text().contains(QStringLiteral("Global batch: global batch 17 is not a multiple of data-parallel 2")),
                 qPrintable(box->text()));
        box->close();
        QCOMPARE(editor().current().candidate, shown);
        batch->setValue(before);
    }
};

QTEST_MAIN(PlanWorkbenchTest)
#include "PlanWorkbenchTest.moc"
