#include "plans/PlanWorkbench.h"

#include "search/ClusterPanel.h"
#include "common/ErrorText.h"
#include "plans/ExportDialog.h"
#include "fold/FoldedModel.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewContent.h"
#include "graphview/GraphViewPane.h"
#include "graphview/GraphViewsPanel.h"
#include "history/HistoryPanel.h"
#include "history/HistoryRecorder.h"
#include "model/LoadedModel.h"
#include "model/ModelSession.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanEditor.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"
#include "base/Error.h"
#include "cluster/PipelineStages.h"
#include "export/PlanFileImport.h"
#include "history/RecordsOf.h"
#include "history/HistoryStore.h"
#include "history/PlanOfRecord.h"
#include "history/PlanRecost.h"
#include "plan/ExpertPlans.h"
#include "target/TrainingStack.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QUndoStack>

#include <utility>

namespace tapestry {

namespace {

QString roleText(PlanCandidate::Role role)
{
    switch (role) {
    case PlanCandidate::Role::Best: return PlanWorkbench::tr("best");
    case PlanCandidate::Role::Alternative: return PlanWorkbench::tr("alternative");
    case PlanCandidate::Role::BestSoFar: return PlanWorkbench::tr("best so far");
    case PlanCandidate::Role::Expert: return PlanWorkbench::tr("expert");
    case PlanCandidate::Role::Opened: return PlanWorkbench::tr("opened");
    }
    return {};
}

QString choiceLabel(const QString& kind, const PlanCandidate& candidate)
{
    return PlanWorkbench::tr("%1 %2 %3, %L4 ms")
        .arg(kind, QString::fromStdString(candidate.plan.name), QString::fromStdString(candidate.meshText))
        .arg(candidate.stepSeconds() * 1e3, 0, 'f', 2);
}

// The mesh an expert plan starts on: the panel's, else (automatic mesh) tensor
// parallelism inside a node, as Megatron-LM places it.
std::vector<MeshAxis> startMesh(const SearchSetup& setup)
{
    const std::vector<std::vector<MeshAxis>> meshes = setup.meshes();
    for (const std::vector<MeshAxis>& mesh : meshes) {
        if (mesh.size() == 2 && mesh.back().size == setup.cluster.gpusPerNode)
            return mesh;
    }
    return meshes.front();
}

// The panel's workload against a plan started on its mesh, as evaluate checks its own
// (the data-parallel degree is the plan's): "Global batch: global batch 17 is not a
// multiple of micro-batch 1 x data-parallel 2".
void checkPanelWorkload(const Workload& workload, const PlanPricing& pricing, const FoldedModel& model, const Plan& plan)
{
    checkWorkload(workload, workloadDegrees(pricing.costs(), model, plan), ClusterPanel::workloadFieldNames(), {});
}

}  // namespace

PlanWorkbench::PlanWorkbench(QMainWindow* window, ModelSession* session, GraphViewsPanel* graphViews,
                             ClusterPanel* clusterPanel, QDockWidget* besideDock)
    : QObject(window), window_(window), session_(session), graphViews_(graphViews), clusterPanel_(clusterPanel)
{
    recorder_ = new HistoryRecorder(this);
    editor_ = new PlanEditor(recorder_, this);
    editPanel_ = new PlanEditPanel(editor_, window);
    compareView_ = new PlanCompareView(window);
    historyPanel_ = new HistoryPanel(recorder_, window);

    editDock_ = new QDockWidget(tr("Plan Editor"), window);
    editDock_->setObjectName(QStringLiteral("editDock"));
    editDock_->setWidget(editPanel_);
    window->addDockWidget(Qt::RightDockWidgetArea, editDock_);
    historyDock_ = new QDockWidget(tr("History"), window);
    historyDock_->setObjectName(QStringLiteral("historyDock"));
    historyDock_->setWidget(historyPanel_);
    window->addDockWidget(Qt::RightDockWidgetArea, historyDock_);
    window->tabifyDockWidget(editDock_, historyDock_);
    editDock_->raise();
    compareDock_ = new QDockWidget(tr("Compare Plans"), window);
    compareDock_->setObjectName(QStringLiteral("compareDock"));
    compareDock_->setWidget(compareView_);
    window->addDockWidget(Qt::BottomDockWidgetArea, compareDock_);
    window->tabifyDockWidget(besideDock, compareDock_);
    // Empty until two plans are compared; it shows itself then.
    compareDock_->hide();

    connect(session_, &ModelSession::modelChanged, this, &PlanWorkbench::onModelChanged);
    connect(session_, &ModelSession::foldFinished, this, [this] {
        // The plan that asked for this model opens now; one of another model is dropped.
        if (std::optional<PlanRecord> pending = std::exchange(pendingRecord_, std::nullopt);
            pending && isOfModelOnScreen(*pending))
            openRecord(*pending);
    });
    // The run is recorded when the search starts, so that the history says how long it took.
    connect(session_, &ModelSession::searchStarted, this, [this] {
        if (session_->folded() && session_->searchedSetup())
            recorder_->beginSearch(*session_->folded(), *session_->searchedSetup());
    });
    connect(session_, &ModelSession::searchFailed, this,
            [this](const QString& problem) { recorder_->endSearch(RunStatus::Failed, problem.toStdString()); });
    // Queued: the window shows the search's end first (MainWindow::onSearchFinished); the
    // record is written before the best plan opens, which looks it up.
    connect(session_, &ModelSession::searchFinished, this, [this](const std::shared_ptr<const SearchOutcome>& results) {
        if (session_->folded() && session_->searchedSetup())
            recorder_->recordSearch(*session_->folded(), *session_->searchedSetup(), *results);
        refreshChoices();
    }, Qt::QueuedConnection);
    connect(editor_, &PlanEditor::planChanged, this, &PlanWorkbench::showEdited);
    connect(editPanel_, &PlanEditPanel::expertStartRequested, this, &PlanWorkbench::startFromExpert);
    connect(editPanel_, &PlanEditPanel::hfTpPlanStartRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(window_, tr("Start From a Hugging Face tp_plan"), QString(),
                                                          tr("tp_plan files (*.json *.py);;All files (*)"));
        if (!path.isEmpty())
            openPlanFile(path);
    });
    // Selecting a box in the coarse or folded view picks what the editor edits.
    for (const GraphViewKind kind : {GraphViewKind::Coarse, GraphViewKind::Folded}) {
        GraphView* view = graphViews_->pane(kind)->view();
        connect(view, &GraphView::selectedNodeChanged, this, [this, view](std::optional<std::size_t> index) {
            if (const ViewNodeRef* ref = index ? view->nodeRef(*index) : nullptr)
                selectTargetOf(*ref);
        });
    }
    connect(historyPanel_, &HistoryPanel::openRequested, this, &PlanWorkbench::openRecord);
    connect(historyPanel_, &HistoryPanel::compareRequested, this,
            [this](const PlanRecord& a, const PlanRecord& b) {
                try {
                    compareView_->compare(choiceOfRecord(a), choiceOfRecord(b));
                    revealCompare();
                } catch (const Error& error) {
                    reportProblem(tr("Could Not Compare"), ErrorText::problem(error) + u' ' + ErrorText::detail(error));
                }
            });
    connect(historyPanel_, &HistoryPanel::exportRequested, this, &PlanWorkbench::exportRecord);
    connect(historyPanel_, &HistoryPanel::recostRequested, this, &PlanWorkbench::recostRecord);
    connect(recorder_, &HistoryRecorder::failed, this, &PlanWorkbench::message);
    historyPanel_->refresh();
}

PlanWorkbench::~PlanWorkbench() = default;

void PlanWorkbench::addMenu(QMenu* planMenu, QMenu* viewMenu)
{
    QAction* undo = editor_->undoStack()->createUndoAction(this, tr("&Undo Edit"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = editor_->undoStack()->createRedoAction(this, tr("&Redo Edit"));
    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    planMenu->addAction(undo);
    planMenu->addAction(redo);
    planMenu->addSeparator();
    compare_ = planMenu->addAction(tr("&Compare With Origin"), this, &PlanWorkbench::compareWithOrigin);
    compare_->setObjectName(QStringLiteral("comparePlans"));
    compare_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    compare_->setToolTip(tr("Compare the plan being edited with the plan it started from"));
    export_ = planMenu->addAction(tr("&Export…"), this, &PlanWorkbench::exportPlan);
    export_->setObjectName(QStringLiteral("exportPlan"));
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* openPlan = planMenu->addAction(tr("&Open Plan File…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            window_, tr("Open Plan"), QString(), tr("Plans, tp_plans, Megatron-LM arguments, torchtitan configs and ONNX exports (*.json *.py *.sh *.toml *.onnx);;"
               "All files (*)"));
        if (!path.isEmpty())
            openPlanFile(path);
    });
    openPlan->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    planMenu->addSeparator();
    QAction* save = planMenu->addAction(tr("&Save View as SVG/PNG…"), this,
                                        [this] { graphViews_->pane(graphViews_->currentView())->saveAs(); });
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    // Only while the graph views have the focus: F typed elsewhere (a filter box) stays text.
    QAction* fit = planMenu->addAction(tr("&Fit Graph"), this, &PlanWorkbench::fitView);
    fit->setShortcut(QKeySequence(Qt::Key_F));
    fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    graphViews_->addAction(fit);

    viewMenu->addAction(editDock_->toggleViewAction());
    viewMenu->addAction(compareDock_->toggleViewAction());
    viewMenu->addAction(historyDock_->toggleViewAction());
}

const std::shared_ptr<const FoldedModel>& PlanWorkbench::folded() const
{
    return session_->folded();
}

std::shared_ptr<const PlanPricing> PlanWorkbench::currentPricing(const std::vector<MeshAxis>& mesh,
                                                                 const Workload* workload) const
{
    SearchSetup setup = clusterPanel_->setup();
    if (workload)
        setup.workload = *workload;
    return std::make_shared<const PlanPricing>(folded(), std::move(setup), mesh);
}

void PlanWorkbench::onModelChanged()
{
    // A new model drops the running search (ModelSession).
    recorder_->endSearch(RunStatus::Cancelled, "another model was opened");
    origin_.reset();
    extraChoices_.clear();
    editor_->open(nullptr, {});
    compareView_->setChoices(nullptr, nullptr, {});
}

void PlanWorkbench::candidateOpened(const std::shared_ptr<const PlanCandidate>& candidate)
{
    if (!candidate || !session_->searchedSetup() || !folded())
        return;
    if (editor_->current().candidate == candidate)
        return;
    try {
        // Edits are priced with the training techniques the search chose for this plan.
        auto pricing = std::make_shared<const PlanPricing>(
            folded(), withChosenTechniques(*session_->searchedSetup(), candidate->workload), planMeshAxes(candidate->plan));
        origin_ = candidate;
        editor_->open(std::move(pricing), {candidate, recorder_->recordOf(candidate)});
    } catch (const Error& error) {
        emit message(ErrorText::problem(error));
    }
}

void PlanWorkbench::showEdited()
{
    const std::shared_ptr<const PlanCandidate>& candidate = editor_->current().candidate;
    if (candidate && editor_->pricing())
        session_->setCurrentPlan(editor_->pricing()->folded(), candidate);
    refreshChoices();
}

void PlanWorkbench::selectTargetOf(const ViewNodeRef& ref)
{
    const std::shared_ptr<const FoldedModel>& shown = folded();
    if (!shown || !editor_->pricing() || editor_->pricing()->folded() != shown)
        return;
    // A block stands for its first anchor (the first node when it has none).
    CoarseNodeId node;
    if (ref.kind == ViewNodeRef::Kind::Coarse) {
        node = CoarseNodeId{ref.index};
    } else if (ref.kind == ViewNodeRef::Kind::Family) {
        const Family& family = shown->families.family(FamilyId{ref.index});
        node = family.anchors.empty() ? family.representative().nodes.front() : family.anchors.front();
    } else {
        return;
    }
    for (const EditTarget& target : editor_->targets()) {
        if (std::find(target.nodes.begin(), target.nodes.end(), node) != target.nodes.end()) {
            editPanel_->selectTarget(QString::fromStdString(target.name));
            return;
        }
    }
}

void PlanWorkbench::refreshChoices()
{
    QList<PlanCompareView::Choice> choices;
    auto add = [&](const QString& kind, const std::shared_ptr<const PlanCandidate>& candidate) {
        if (!candidate || std::any_of(choices.begin(), choices.end(),
                                      [&](const PlanCompareView::Choice& c) { return c.candidate == candidate; }))
            return;
        choices.append({choiceLabel(kind, *candidate), candidate});
    };
    add(tr("started from"), origin_);
    add(tr("edited"), editor_->current().candidate);
    // The session's results are always of the model on screen: a new model clears them.
    if (const std::shared_ptr<const SearchOutcome>& results = session_->results()) {
        for (const std::shared_ptr<const PlanCandidate>& candidate : results->candidates)
            add(roleText(candidate->role), candidate);
    }
    for (const PlanCompareView::Choice& choice : extraChoices_)
        add(choice.label, choice.candidate);
    compareView_->setChoices(session_->model(), folded(), std::move(choices));
}

void PlanWorkbench::startFromExpert(bool sequenceParallel)
{
    if (!folded()) {
        emit message(tr("Open a model and wait until it is folded first."));
        return;
    }
    try {
        const SearchSetup setup = clusterPanel_->setup();
        auto pricing = currentPricing(startMesh(setup), nullptr);
        // On a pipelined mesh the plan covers one stage's devices and runs as that many stages.
        Plan plan = makeExpertPlan(sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel : ExpertPlanKind::Megatron,
                                   folded()->coarse, pricing->mesh().axes());
        plan.pipeline.stages = pricing->pipelineStages();
        checkPanelWorkload(setup.workload, *pricing, *folded(), plan);
        std::shared_ptr<const PlanCandidate> candidate = pricing->price(std::move(plan));
        const PlanRecordId record = recorder_->recordPlan(*pricing, *candidate, {});
        origin_ = candidate;
        editor_->open(std::move(pricing), {candidate, record});
        editDock_->raise();
    } catch (const Error& error) {
        reportProblem(tr("Could Not Start From the Expert Plan"),
                      ErrorText::problem(error) + u' ' + ErrorText::detail(error));
    }
}

void PlanWorkbench::startFromImport(Plan plan, std::shared_ptr<const PlanPricing> pricing, TrainingStack implementations,
                                    const QString& fileName, const std::vector<std::string>& warnings)
{
    std::shared_ptr<const PlanCandidate> candidate =
        pricing->price(std::move(plan), PlanCandidate::Role::Opened, implementations);
    const PlanRecordId record = recorder_->recordPlan(*pricing, *candidate, {});
    origin_ = candidate;
    editor_->open(std::move(pricing), {candidate, record});
    editDock_->raise();
    emit message(warnings.empty() ? tr("Started from %1.").arg(fileName)
                                  : tr("Started from %1 (%n warning(s): %2).", nullptr, static_cast<int>(warnings.size()))
                                        .arg(fileName, QString::fromStdString(warnings.front())));
}

void PlanWorkbench::openPlanFile(const QString& path)
{
    const QString fileName = QFileInfo(path).fileName();
    if (!folded()) {
        reportProblem(tr("Could Not Open Plan"),
                      tr("Could not open %1: open its model first and wait until it is folded.").arg(fileName));
        return;
    }
    try {
        // Megatron-LM arguments and torchtitan configs run on the cluster panel's GPUs; a
        // tp_plan lays tensor parallelism on the panel's mesh (one stage's, on a pipeline).
        const SearchSetup setup = clusterPanel_->setup();
        const std::vector<MeshAxis> panelMesh = startMesh(setup);
        const PipelinedMesh split = splitPipelineAxis(panelMesh);
        PlanFileImport imported =
            importPlanFile(path.toStdString(), *folded(), setup.cluster.deviceCount(), split.stageAxes);
        Plan& plan = imported.document.plan;
        switch (imported.kind) {
        case PlanFileKind::TrainingStack: {
            auto pricing = currentPricing(planMeshAxes(plan), &imported.document.workload);
            startFromImport(std::move(plan), std::move(pricing), imported.document.implementations, fileName,
                            imported.warnings);
            return;
        }
        case PlanFileKind::HfTpPlan: {
            auto pricing = currentPricing(panelMesh, nullptr);
            plan.pipeline.stages = split.stages;
            checkPanelWorkload(setup.workload, *pricing, *folded(), plan);
            startFromImport(std::move(plan), std::move(pricing), TrainingStack::Any, fileName, imported.warnings);
            return;
        }
        case PlanFileKind::Tapestry:
        case PlanFileKind::ShardedOnnx: break;
        }
        const PlanDocument& document = imported.document;
        auto pricing = currentPricing(planMeshAxes(document.plan), &document.workload);
        std::shared_ptr<const PlanCandidate> candidate = pricing->price(document.plan, PlanCandidate::Role::Opened, document.implementations);
        extraChoices_.append({choiceLabel(tr("file"), *candidate), candidate});
        origin_ = candidate;
        editor_->open(std::move(pricing), {candidate, {}});
        editDock_->raise();
        emit message(tr("Opened plan %1.").arg(fileName));
    } catch (const Error& error) {
        reportProblem(tr("Could Not Open Plan"), tr("Could not open %1: %2 %3")
                                                     .arg(fileName, ErrorText::problem(error), ErrorText::detail(error)));
    }
}

PlanCompareView::Choice PlanWorkbench::choiceOfRecord(const PlanRecord& record)
{
    if (!folded())
        throw Error(ErrorCode::InvalidArgument, {}, "no folded model on screen");
    const PlanDocument document = planOfRecord(record, recorder_->path(), *folded());
    auto pricing = currentPricing(planMeshAxes(document.plan), &document.workload);
    PlanCompareView::Choice choice;
    choice.candidate = pricing->price(document.plan, PlanCandidate::Role::Opened, document.implementations);
    choice.label = choiceLabel(tr("#%1").arg(record.id.value()), *choice.candidate);
    recorder_->remember(choice.candidate, record.id);
    extraChoices_.append(choice);
    return choice;
}

bool PlanWorkbench::isOfModelOnScreen(const PlanRecord& record) const
{
    return session_->model() &&
           QFileInfo(session_->model()->path).absoluteFilePath() ==
               QFileInfo(QString::fromStdString(record.modelPath)).absoluteFilePath();
}

void PlanWorkbench::openRecord(const PlanRecord& record)
{
    if (!isOfModelOnScreen(record)) {
        const QString path = QString::fromStdString(record.modelPath);
        if (!QFileInfo::exists(path)) {
            reportProblem(tr("Could Not Open Plan"), tr("Plan #%1 was made for %2, which is not there any more.")
                                                         .arg(record.id.value())
                                                         .arg(QDir::toNativeSeparators(path)));
            return;
        }
        pendingRecord_ = record;
        emit message(tr("Opening %1 for plan #%2…").arg(QFileInfo(path).fileName()).arg(record.id.value()));
        emit modelRequested(path);
        return;
    }
    try {
        if (!folded())
            throw Error(ErrorCode::InvalidArgument, {}, "no folded model on screen");
        const PlanDocument document = planOfRecord(record, recorder_->path(), *folded());
        auto pricing = currentPricing(planMeshAxes(document.plan), &document.workload);
        std::shared_ptr<const PlanCandidate> candidate = pricing->price(document.plan, PlanCandidate::Role::Opened, document.implementations);
        extraChoices_.append({choiceLabel(tr("#%1").arg(record.id.value()), *candidate), candidate});
        recorder_->remember(candidate, record.id);
        origin_ = candidate;
        editor_->open(std::move(pricing), {candidate, record.id});
        editDock_->raise();
    } catch (const Error& error) {
        reportProblem(tr("Could Not Open Plan"), tr("Could not open plan #%1: %2 %3")
                                                     .arg(record.id.value())
                                                     .arg(ErrorText::problem(error), ErrorText::detail(error)));
    }
}

void PlanWorkbench::compareWithOrigin()
{
    const std::shared_ptr<const PlanCandidate>& current = editor_->current().candidate;
    std::shared_ptr<const PlanCandidate> other = origin_ != current ? origin_ : nullptr;
    if (!other && session_->results())
        other = session_->results()->best();
    if (!current || !other || other == current) {
        emit message(tr("Edit a plan first: it is compared with the plan it started from."));
        return;
    }
    compareView_->compare({choiceLabel(tr("started from"), *other), other},
                          {choiceLabel(tr("edited"), *current), current});
    revealCompare();
}

void PlanWorkbench::revealCompare()
{
    const bool wasHidden = compareDock_->isHidden();
    compareDock_->show();
    compareDock_->raise();
    // Two graphs and a table need room: half the window's height when it first appears.
    if (wasHidden)
        window_->resizeDocks({compareDock_}, {window_->height() / 2}, Qt::Vertical);
}

void PlanWorkbench::exportPlan()
{
    if (!folded()) {
        emit message(tr("Open a model first."));
        return;
    }
    std::optional<PlanDocument> document;
    std::optional<Cluster> cluster;
    if (editor_->current().candidate) {
        document = editor_->pricing()->document(*editor_->current().candidate);
        cluster = editor_->pricing()->setup().cluster;
    }
    ExportDialog* dialog = openExportDialog(std::move(document), std::move(cluster));
    // A plan searched for a stack is for that stack's files.
    const std::optional<SearchSetup>& searched = session_->searchedSetup();
    if (editor_->current().candidate && searched) {
        switch (searched->options.stack) {
        case TrainingStack::Megatron: dialog->setFormat(ExportFormat::Megatron); break;
        case TrainingStack::TorchTitan: dialog->setFormat(ExportFormat::TorchTitan); break;
        case TrainingStack::PyTorch: dialog->setFormat(ExportFormat::PyTorch); break;
        case TrainingStack::Any: break;
        }
    }
}

ExportDialog* PlanWorkbench::openExportDialog(std::optional<PlanDocument> document, std::optional<Cluster> cluster)
{
    if (cluster && (!document || cluster->deviceCount() != planDeviceCount(document->plan)))
        cluster.reset();
    auto* dialog = new ExportDialog(folded(), std::move(document), graphViews_->currentView(), std::move(cluster), window_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::written, this, &PlanWorkbench::message);
    dialog->open();
    return dialog;
}

void PlanWorkbench::exportRecord(const PlanRecord& record)
{
    try {
        if (!folded())
            throw Error(ErrorCode::InvalidArgument, {}, "no folded model on screen");
        PlanDocument document = planOfRecord(record, recorder_->path(), *folded());
        openExportDialog(std::move(document), clusterPanel_->setup().cluster);
    } catch (const Error& error) {
        reportProblem(tr("Could Not Export"), ErrorText::problem(error) + u' ' + ErrorText::detail(error));
    }
}

void PlanWorkbench::recostRecord(const PlanRecord& record)
{
    HistoryStore* store = recorder_->store();
    const std::shared_ptr<const FoldedModel>& shown = folded();
    if (!store || !shown)
        return;
    try {
        const SearchSetup setup = clusterPanel_->setup();
        const PlanRecordId id = recostPlan(*store, record.id, shown, setup.cluster);
        emit message(tr("Re-costed plan #%1 as plan #%2.").arg(record.id.value()).arg(id.value()));
        historyPanel_->refresh();
    } catch (const Error& error) {
        reportProblem(tr("Could Not Re-cost"), tr("Could not re-cost plan #%1: %2 %3")
                                                   .arg(record.id.value())
                                                   .arg(ErrorText::problem(error), ErrorText::detail(error)));
    }
}

void PlanWorkbench::fitView()
{
    graphViews_->pane(graphViews_->currentView())->view()->fitToView();
}

void PlanWorkbench::reportProblem(const QString& title, const QString& text)
{
    emit message(text);
    // Not exec(): the window stays responsive and tests can inspect the box.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, window_);
    box->setObjectName(QStringLiteral("planErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace tapestry
