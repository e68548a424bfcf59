#include "windows/MainWindow.h"

#include "search/ClusterPanel.h"
#include "export/PlanFileImport.h"
#include "fold/FoldedModel.h"
#include "graphview/GraphViewsPanel.h"
#include "model/LoadedModel.h"
#include "model/ModelLoader.h"
#include "model/ModelSession.h"
#include "search/PresetDialog.h"
#include "model/ModelSummaryView.h"
#include "plans/PlanEditor.h"
#include "plans/PlanInspector.h"
#include "search/PlanPricing.h"
#include "search/PlanSearchJob.h"
#include "plans/PlanWorkbench.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsPanel.h"
#include "windows/KeyboardShortcuts.h"
#include "windows/RecentFiles.h"
#include "common/ResourceLocator.h"
#include "model/ScopeTreeModel.h"
#include "sharding/ShardingProblemLoader.h"
#include "sharding/ShardingProblemWindow.h"
#include "common/Translations.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QShowEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QScreen>
#include <QHBoxLayout>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

// Resources of a static library must be registered by name, outside any namespace.
static void initTapestryResources()
{
    Q_INIT_RESOURCE(tapestry);
}

namespace tapestry {

namespace {

constexpr int kStatusTimeoutMs = 8000;

QString geometryKey()
{
    return QStringLiteral("mainWindow/geometry");
}

QString stateKey()
{
    return QStringLiteral("mainWindow/state");
}

QString sideSplitterKey()
{
    return QStringLiteral("mainWindow/sideSplitter");
}

// Saved dock states of another layout are not restored (docks moved between areas).
constexpr int kLayoutVersion = 2;

// The first local IOPDDL sharding problem among dragged URLs; empty when none.
QString problemFileIn(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile() && ShardingProblemLoader::isProblemFile(url.toLocalFile()))
            return url.toLocalFile();
    }
    return {};
}

// The first local plan file (.json, or a tp_plan's .py) among dragged URLs; empty when none.
// Plans, Hugging Face tp_plans, Megatron-LM arguments and torchtitan configs.
constexpr std::array kPlanFileSuffixes = {".json", ".py", ".sh", ".toml"};

QString planFileIn(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        const QString file = url.toLocalFile();
        const bool plan = std::any_of(kPlanFileSuffixes.begin(), kPlanFileSuffixes.end(), [&](const char* suffix) {
            return file.endsWith(QLatin1String(suffix), Qt::CaseInsensitive);
        });
        if (url.isLocalFile() && plan)
            return file;
    }
    return {};
}

// The first local .onnx file among dragged URLs; empty when there is none.
QString onnxFileIn(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile() && url.toLocalFile().endsWith(QStringLiteral(".onnx"), Qt::CaseInsensitive))
            return url.toLocalFile();
    }
    return {};
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    initTapestryResources();
    setWindowIcon(QIcon(QStringLiteral(":/icons/tapestry.svg")));
    setWindowTitle(tr("Tapestry"));
    setAcceptDrops(true);

    session_ = new ModelSession(this);
    loader_ = new ModelLoader(this);
    connect(loader_, &ModelLoader::started, this, &MainWindow::onLoadStarted);
    connect(loader_, &ModelLoader::loaded, this, &MainWindow::onLoaded);
    connect(loader_, &ModelLoader::failed, this, [this](const QString& path, const QString& problem, const QString& detail) {
        reportOpenFailure(tr("Could Not Open Model"), path, problem, detail);
    });
    problemLoader_ = new ShardingProblemLoader(this);
    connect(problemLoader_, &ShardingProblemLoader::started, this, &MainWindow::onLoadStarted);
    connect(problemLoader_, &ShardingProblemLoader::loaded, this, &MainWindow::onProblemLoaded);
    connect(problemLoader_, &ShardingProblemLoader::failed, this,
            [this](const QString& path, const QString& problem, const QString& detail) {
                reportOpenFailure(tr("Could Not Open Sharding Problem"), path, problem, detail);
            });

    placeholder_ = new QLabel(tr("Open an ONNX model or an IOPDDL sharding problem with File > Open, or drop the "
                                 "file here."),
                              this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);

    summaryView_ = new ModelSummaryView(this);
    scopeModel_ = new ScopeTreeModel(this);
    scopeView_ = new QTreeView(this);
    scopeView_->setObjectName(QStringLiteral("scopeView"));
    scopeView_->setModel(scopeModel_);
    scopeView_->setUniformRowHeights(true);
    scopeView_->setAlternatingRowColors(true);
    scopeView_->header()->setStretchLastSection(false);
    scopeView_->header()->setSectionResizeMode(ScopeTreeModel::NameColumn, QHeaderView::Stretch);
    scopeView_->header()->setSectionResizeMode(ScopeTreeModel::TotalOpsColumn, QHeaderView::ResizeToContents);
    scopeView_->header()->setSectionResizeMode(ScopeTreeModel::DirectOpsColumn, QHeaderView::ResizeToContents);

    auto* scopes = new QGroupBox(tr("Module scopes"), this);
    (new QVBoxLayout(scopes))->addWidget(scopeView_);

    // The graph views are the whole central area; summary and scope tree share a dock.
    sideSplitter_ = new QSplitter(Qt::Vertical, this);
    // Scrolls rather than holding the window's height when the bottom docks take room.
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setWidget(summaryView_);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryScroll->setMinimumWidth(fontMetrics().averageCharWidth() * 30);
    sideSplitter_->addWidget(summaryScroll);
    sideSplitter_->addWidget(scopes);
    sideSplitter_->setStretchFactor(0, 3);
    sideSplitter_->setStretchFactor(1, 2);
    sideSplitter_->setChildrenCollapsible(false);

    connect(session_, &ModelSession::modelChanged, summaryView_, &ModelSummaryView::setModel);
    connect(session_, &ModelSession::modelChanged, scopeModel_, &ScopeTreeModel::setModel);
    graphViews_ = new GraphViewsPanel(session_, this);

    pages_ = new QStackedWidget(this);
    pages_->addWidget(placeholder_);
    pages_->addWidget(graphViews_);
    setCentralWidget(pages_);

    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("importProgress"));
    progress_->setRange(0, 0);  // busy: the importer reports no progress
    progress_->setMaximumWidth(160);
    progress_->setTextVisible(false);
    progress_->hide();
    statusBar()->addPermanentWidget(progress_);

    searchStatus_ = new QLabel(this);
    searchStatus_->setObjectName(QStringLiteral("searchStatus"));
    searchStatus_->hide();
    searchProgress_ = new QProgressBar(this);
    searchProgress_->setObjectName(QStringLiteral("searchProgress"));
    searchProgress_->setRange(0, 1000);
    searchProgress_->setMaximumWidth(200);
    searchProgress_->setTextVisible(false);
    searchProgress_->hide();
    statusBar()->addPermanentWidget(searchStatus_);
    statusBar()->addPermanentWidget(searchProgress_);

    connect(session_, &ModelSession::searchProgressed, this, &MainWindow::onSearchProgress);
    connect(session_, &ModelSession::searchFailed, this, &MainWindow::onSearchFailed);
    // A new model discards the running search.
    connect(session_, &ModelSession::modelChanged, this, [this] { setSearching(false); });

    createDocks();
    connect(clusterPanel_, &ClusterPanel::precisionChanged, summaryView_, &ModelSummaryView::setPrecision);
    // A target that cannot train the model on screen is not offered (its search would fail).
    connect(session_, &ModelSession::foldFinished, clusterPanel_, [this](const std::shared_ptr<const FoldedModel>& folded) {
        if (folded)
            clusterPanel_->offerTargetsFor(*folded);
    });
    connect(clusterPanel_, &ClusterPanel::targetReplaced, this,
            [this](const QString& reason) { statusBar()->showMessage(reason, kStatusTimeoutMs); });
    workbench_ = new PlanWorkbench(this, session_, graphViews_, clusterPanel_, inspectorDock_);
    tabifyDockWidget(modelDock_, workbench_->editDock());
    tabifyDockWidget(workbench_->editDock(), workbench_->historyDock());
    clusterDock_->raise();
    // The docks under the graph share one tab bar that names them: no title bar above
    // them as well (the View menu shows and hides them), so the graph keeps the height.
    for (QDockWidget* dock : {resultsDock_, inspectorDock_, workbench_->compareDock()})
        dock->setTitleBarWidget(new QWidget(dock));
    // After the workbench's own connection, queued (queued slots run in the order
    // posted): it records the search in the history before the best plan, opened here
    // as a queued event too, looks up its record.
    connect(session_, &ModelSession::searchFinished, this, &MainWindow::onSearchFinished);
    connect(workbench_, &PlanWorkbench::modelRequested, this, &MainWindow::openFile);
    connect(workbench_, &PlanWorkbench::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, kStatusTimeoutMs); });
    createActions();

    const QSettings settings;
    if (!restoreGeometry(settings.value(geometryKey()).toByteArray()))
        resize(1280, 800);
    layoutRestored_ = restoreState(settings.value(stateKey()).toByteArray(), kLayoutVersion);
    sideSplitter_->restoreState(settings.value(sideSplitterKey()).toByteArray());
    fitIntoScreen();
}

void MainWindow::fitIntoScreen()
{
    if (isMaximized() || isFullScreen())
        return;
    const QRect available = screen()->availableGeometry();
    // The window system's frame: known once shown, else about a title bar.
    const QSize frame = isVisible() ? frameGeometry().size() - geometry().size()
                                    : QSize(0, style()->pixelMetric(QStyle::PM_TitleBarHeight));
    resize(size().boundedTo(available.size() - frame).expandedTo(minimumSizeHint()));
    const QRect placed(pos(), size() + frame);
    if (!available.contains(placed))
        move(std::clamp(placed.left(), available.left(), std::max(available.left(), available.right() - placed.width() + 1)),
             std::clamp(placed.top(), available.top(), std::max(available.top(), available.bottom() - placed.height() + 1)));
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* open = fileMenu->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    QAction* preset = fileMenu->addAction(tr("New from &Preset…"), this, &MainWindow::choosePreset);
    preset->setShortcut(QKeySequence::New);
    recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* searchMenu = menuBar()->addMenu(tr("&Search"));
    startSearch_ = searchMenu->addAction(tr("&Start Search"), this, &MainWindow::startSearch);
    startSearch_->setObjectName(QStringLiteral("startSearch"));
    startSearch_->setShortcut(QKeySequence(Qt::Key_F5));
    startSearch_->setToolTip(tr("Search plans for the model on the cluster, mesh and workload of the panel (F5)"));
    cancelSearch_ = searchMenu->addAction(tr("&Cancel Search"), this, &MainWindow::cancelSearch);
    cancelSearch_->setObjectName(QStringLiteral("cancelSearch"));
    cancelSearch_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelSearch_->setEnabled(false);
    // In the menu bar's corner rather than a toolbar row of its own: the graph keeps the height.
    auto* searchButtons = new QWidget(this);
    searchButtons->setObjectName(QStringLiteral("searchButtons"));
    auto* buttonRow = new QHBoxLayout(searchButtons);
    buttonRow->setContentsMargins(0, 0, 4, 0);
    buttonRow->setSpacing(2);
    for (QAction* action : {startSearch_, cancelSearch_}) {
        auto* button = new QToolButton(searchButtons);
        button->setDefaultAction(action);
        button->setAutoRaise(true);
        buttonRow->addWidget(button);
    }
    menuBar()->setCornerWidget(searchButtons, Qt::TopRightCorner);

    QMenu* planMenu = menuBar()->addMenu(tr("&Plan"));
    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(clusterDock_->toggleViewAction());
    viewMenu->addAction(resultsDock_->toggleViewAction());
    viewMenu->addAction(inspectorDock_->toggleViewAction());
    workbench_->addMenu(planMenu, viewMenu);
    viewMenu->addSeparator();
    createLanguageMenu(viewMenu);

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* workflow = helpMenu->addAction(tr("&Workflow (README)"), this, [this] {
        const QString readme = ResourceLocator::readmePath();
        if (readme.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(readme)))
            statusBar()->showMessage(tr("The README was not found beside the application."), kStatusTimeoutMs);
    });
    workflow->setObjectName(QStringLiteral("showWorkflow"));
    workflow->setToolTip(tr("Opens the README: open a model, search, inspect, edit, compare and export"));
    QAction* shortcuts = helpMenu->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setObjectName(QStringLiteral("showShortcuts"));
    helpMenu->addSeparator();
    helpMenu->addAction(tr("&About Tapestry"), this, &MainWindow::showAbout);
    helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createDocks()
{
    clusterPanel_ = new ClusterPanel(this);
    clusterDock_ = new QDockWidget(tr("Cluster and Workload"), this);
    clusterDock_->setObjectName(QStringLiteral("clusterDock"));
    // The form is taller than a small screen: let it scroll rather than push the window.
    auto* clusterScroll = new QScrollArea(this);
    clusterScroll->setWidget(clusterPanel_);
    clusterScroll->setWidgetResizable(true);
    clusterScroll->setFrameShape(QFrame::NoFrame);
    clusterScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    clusterScroll->setMinimumWidth(clusterPanel_->minimumSizeHint().width() + 16);
    clusterDock_->setWidget(clusterScroll);
    // The right column runs the window's full height: the setup, the model, the editor
    // and the history share it as tabs, and the results below keep to the graph's width.
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, clusterDock_);
    modelDock_ = new QDockWidget(tr("Model"), this);
    modelDock_->setObjectName(QStringLiteral("modelDock"));
    modelDock_->setWidget(sideSplitter_);
    addDockWidget(Qt::RightDockWidgetArea, modelDock_);
    tabifyDockWidget(clusterDock_, modelDock_);

    resultsPanel_ = new SearchResultsPanel(this);
    resultsDock_ = new QDockWidget(tr("Search Results"), this);
    resultsDock_->setObjectName(QStringLiteral("resultsDock"));
    resultsDock_->setWidget(resultsPanel_);
    addDockWidget(Qt::BottomDockWidgetArea, resultsDock_);

    inspector_ = new PlanInspector(this);
    inspectorDock_ = new QDockWidget(tr("Plan Inspector"), this);
    inspectorDock_->setObjectName(QStringLiteral("inspectorDock"));
    inspectorDock_->setWidget(inspector_);
    addDockWidget(Qt::BottomDockWidgetArea, inspectorDock_);
    tabifyDockWidget(resultsDock_, inspectorDock_);
    // Empty until the first search: they appear when one starts (or from the View menu).
    resultsDock_->hide();
    inspectorDock_->hide();

    connect(resultsPanel_, &SearchResultsPanel::candidateOpened, this, &MainWindow::openCandidate);
    connect(session_, &ModelSession::resultsChanged, resultsPanel_, &SearchResultsPanel::setResults);
    connect(session_, &ModelSession::currentPlanChanged, inspector_,
            [this](const std::shared_ptr<const PlanCandidate>& candidate) {
                inspector_->setPlan(candidate ? session_->folded() : nullptr, candidate, setupOf(candidate).get());
                // A plan opened from the history or a file shows its costs too.
                if (candidate && inspectorDock_->isHidden())
                    revealPlanDocks();
            });
}

std::shared_ptr<const SearchSetup> MainWindow::setupOf(const std::shared_ptr<const PlanCandidate>& candidate) const
{
    if (!candidate)
        return nullptr;
    // An edit is priced by the editor's setup, a search result by the search's, a plan
    // opened from elsewhere by the panel's.
    const PlanEditor* editor = workbench_->editor();
    if (editor->current().candidate == candidate && editor->pricing())
        return std::make_shared<const SearchSetup>(editor->pricing()->setup());
    if (session_->searchedSetup() && session_->results() &&
        std::find(session_->results()->candidates.begin(), session_->results()->candidates.end(), candidate) !=
            session_->results()->candidates.end())
        return std::make_shared<const SearchSetup>(*session_->searchedSetup());
    return std::make_shared<const SearchSetup>(clusterPanel_->setup());
}

void MainWindow::showInspector(bool inspector)
{
    revealPlanDocks();
    (inspector ? inspectorDock_ : resultsDock_)->raise();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!arranged_) {
        arranged_ = true;
        arrangeDocks();
    }
}

void MainWindow::arrangeDocks()
{
    if (layoutRestored_)
        return;
    const int column = std::clamp(width() * 3 / 10, clusterDock_->minimumSizeHint().width(), 640);
    resizeDocks({clusterDock_}, {column}, Qt::Horizontal);
}

void MainWindow::revealPlanDocks()
{
    const bool wasHidden = resultsDock_->isHidden() && inspectorDock_->isHidden();
    resultsDock_->show();
    inspectorDock_->show();
    if (!wasHidden || layoutRestored_)
        return;
    // A quarter of a tall window; on a laptop's 768 px that left the inspector's cost table
    // 3-4 rows under its summary, tabs, scroll bar and footer, so 26 lines there as long as
    // the graph keeps a third of the window (35 % of the height at most).
    const int share = std::max(height() * 27 / 100, std::min(height() * 35 / 100, fontMetrics().height() * 26));
    resizeDocks({resultsDock_, inspectorDock_}, {share, share}, Qt::Vertical);
}

bool MainWindow::isSearching() const
{
    return session_->isSearching();
}

void MainWindow::startSearch()
{
    if (!session_->startSearch(clusterPanel_->setup())) {
        statusBar()->showMessage(session_->model() ? tr("The model is still being folded; start the search in a moment.")
                                                   : tr("Open a model first."),
                                 kStatusTimeoutMs);
        return;
    }
    clusterPanel_->rememberFor(session_->model()->path);
    resultsPanel_->setPricing(session_->folded(), session_->searchedSetup() ? &*session_->searchedSetup() : nullptr);
    revealPlanDocks();
    resultsPanel_->setMessage(tr("Searching…"));
    setSearching(true);
    onSearchProgress(tr("Starting"), 0);
    resultsDock_->raise();
}

void MainWindow::cancelSearch()
{
    if (!session_->isSearching())
        return;
    session_->cancelSearch();
    searchStatus_->setText(tr("Cancelling…"));
}

void MainWindow::onSearchProgress(const QString& phase, double fraction)
{
    searchStatus_->setText(tr("Search: %1").arg(phase));
    searchProgress_->setValue(static_cast<int>(fraction * 1000));
}

void MainWindow::onSearchFinished(const std::shared_ptr<const SearchOutcome>& results)
{
    setSearching(false);
    const QString message = PlanSearchJob::message(*results);
    resultsPanel_->setMessage(message);
    statusBar()->showMessage(message, kStatusTimeoutMs);
    // The search has ended: show it at once. Opening its best plan (inspector, editor,
    // overlay) takes a few hundred ms on a busy machine, so it follows as an event of
    // its own, and searchFinished with it. Widgets post their repaints at low priority,
    // after that event: paint what changed now.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateRequest);
    QMetaObject::invokeMethod(this, [this, best = results->best()] {
        if (best && session_->results() && best == session_->results()->best())
            openCandidate(best);
        emit searchFinished();
    }, Qt::QueuedConnection);
}

void MainWindow::onSearchFailed(const QString& problem, const QString& detail)
{
    setSearching(false);
    resultsPanel_->setMessage(tr("The search failed: %1 %2").arg(problem, detail));
    statusBar()->showMessage(tr("The search failed: %1").arg(problem), kStatusTimeoutMs);
    emit searchFinished();
}

void MainWindow::setSearching(bool searching)
{
    startSearch_->setEnabled(!searching);
    cancelSearch_->setEnabled(searching);
    searchStatus_->setVisible(searching);
    searchProgress_->setVisible(searching);
}

void MainWindow::openCandidate(std::shared_ptr<const PlanCandidate> candidate)
{
    // The session's results are always of the model on screen: a new model clears them.
    session_->setCurrentPlan(session_->folded(), candidate);
    workbench_->candidateOpened(candidate);
    inspectorDock_->raise();
    workbench_->editDock()->raise();
}

void MainWindow::createLanguageMenu(QMenu* viewMenu)
{
    QMenu* languageMenu = viewMenu->addMenu(tr("&Language"));
    QAction* note = languageMenu->addAction(tr("Takes effect when Tapestry starts again"));
    note->setEnabled(false);
    languageMenu->addSeparator();
    auto* group = new QActionGroup(languageMenu);
    const QString chosen = Translations::chosen();
    for (const Translations::Language& language : Translations::available()) {
        QAction* action = languageMenu->addAction(language.name);
        action->setCheckable(true);
        action->setChecked(language.code == chosen);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code = language.code] {
            Translations::choose(code);
            statusBar()->showMessage(tr("The new language takes effect when Tapestry starts again."),
                                     kStatusTimeoutMs);
        });
    }
}

void MainWindow::openAtStartup(const QString& commandLinePath)
{
    if (!commandLinePath.isEmpty()) {
        openFile(commandLinePath);
        return;
    }
    // Where the last session left off: its most recent file that is still there.
    for (const QString& recent : RecentFiles::list()) {
        if (QFileInfo::exists(recent)) {
            openFile(recent);
            return;
        }
    }
    const QString defaultModel = ResourceLocator::defaultModelPath();
    if (!defaultModel.isEmpty())
        openFile(defaultModel);
}

bool MainWindow::isLoading() const
{
    return loader_->isBusy() || problemLoader_->isBusy();
}

void MainWindow::openFile(const QString& path)
{
    if (path.isEmpty())
        return;
    if (ShardingProblemLoader::isProblemFile(path))
        problemLoader_->read(path);
    else
        loader_->load(path);
}

void MainWindow::choosePreset()
{
    PresetDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        openPreset(dialog.preset(), dialog.layers());
}

void MainWindow::openPreset(const QString& preset, int layers)
{
    const QString name = layers > 0 ? preset + QStringLiteral("-") + QString::number(layers) + QStringLiteral("l") : preset;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/presets");
    loader_->synthesize(preset, layers, QDir(folder).filePath(name + QStringLiteral(".onnx")));
}

void MainWindow::chooseFile()
{
    const QString startDir = session_->model() ? QFileInfo(session_->model()->path).absolutePath() : QDir::homePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Model or Sharding Problem"), startDir,
        tr("Models and sharding problems (*.onnx *.json *.json.gz);;ONNX models (*.onnx);;"
           "IOPDDL sharding problems (*.json *.json.gz);;All files (*)"));
    openFile(path);
}

void MainWindow::fillRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = RecentFiles::list();
    for (const QString& file : files) {
        QAction* action = recentMenu_->addAction(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this, [this, file] { openFile(file); });
    }
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("&Clear Menu"), this, [] { RecentFiles::clear(); });
}

void MainWindow::showShortcuts()
{
    QString rows;
    for (const KeyboardShortcut& shortcut : keyboardShortcuts(*menuBar()))
        rows += QStringLiteral("<tr><td>%1</td><td>&nbsp;&nbsp;<b>%2</b></td></tr>")
                    .arg(shortcut.action.toHtmlEscaped(), shortcut.keys.toHtmlEscaped());
    // Not exec(): tests read the box.
    auto* box = new QMessageBox(QMessageBox::Information, tr("Keyboard Shortcuts"),
                                QStringLiteral("<table>") + rows + QStringLiteral("</table>"), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("shortcutsBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Tapestry"),
        tr("<h3>Tapestry %1</h3>"
           "<p>A plan explorer for tensor- and data-parallel training of large neural "
           "networks.</p>"
           "<p>Open an ONNX model to see its size, its inputs and outputs, the op types it is "
           "made of and its module hierarchy.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::onLoadStarted(const QString& path)
{
    setBusy(true);
    statusBar()->showMessage(tr("Importing %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::onLoaded(std::shared_ptr<const LoadedModel> model)
{
    const QString path = model->path;
    session_->setModel(std::move(model));
    clusterPanel_->recallFor(path);  // the cluster, mesh and workload of its last search
    scopeView_->expandToDepth(1);
    pages_->setCurrentWidget(graphViews_);

    const QString fileName = QFileInfo(path).fileName();
    setWindowTitle(tr("%1 — Tapestry").arg(fileName));
    RecentFiles::add(path);
    setBusy(false);
    statusBar()->showMessage(tr("Opened %1.").arg(fileName), kStatusTimeoutMs);
    emit loadFinished(true);
}

void MainWindow::onProblemLoaded(const QString& path, std::shared_ptr<const ShardingProblem> problem)
{
    auto* window = new ShardingProblemWindow(path, std::move(problem), this);
    window->show();
    RecentFiles::add(path);
    setBusy(false);
    statusBar()->showMessage(tr("Opened %1.").arg(QFileInfo(path).fileName()), kStatusTimeoutMs);
    emit problemOpened(window);
    emit loadFinished(true);
}

void MainWindow::reportOpenFailure(const QString& title, const QString& path, const QString& problem,
                                   const QString& detail)
{
    setBusy(false);
    const QString fileName = QFileInfo(path).fileName();
    statusBar()->showMessage(tr("Could not open %1: %2").arg(fileName, problem), kStatusTimeoutMs);

    // Not exec(): the window stays responsive and tests can inspect the box.
    auto* box = new QMessageBox(QMessageBox::Warning, title, tr("Could not open %1.").arg(fileName), QMessageBox::Ok,
                                this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(problem + u"\n\n" + QDir::toNativeSeparators(path) + u"\n" + detail);
    box->open();
    emit loadFinished(false);
}

void MainWindow::setBusy(bool busy)
{
    progress_->setVisible(busy);
    if (!busy)
        statusBar()->clearMessage();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isSearching()) {
        event->ignore();
        askToCancelSearchAndClose();
        return;
    }
    QSettings settings;
    settings.setValue(geometryKey(), saveGeometry());
    settings.setValue(stateKey(), saveState(kLayoutVersion));
    settings.setValue(sideSplitterKey(), sideSplitter_->saveState());
    event->accept();
}

void MainWindow::askToCancelSearchAndClose()
{
    // Not exec(): the search keeps reporting while the box is open, and tests answer it.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Search Running"),
                                tr("A search is still running. Cancel it and quit? The plans it found so far "
                                   "are kept in the history."),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("closeWhileSearchingBox"));
    QPushButton* quit = box->addButton(tr("Cancel Search and Quit"), QMessageBox::AcceptRole);
    box->setDefaultButton(box->addButton(tr("Keep Searching"), QMessageBox::RejectRole));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, quit](QAbstractButton* clicked) {
        if (clicked != quit)
            return;
        if (!isSearching()) {  // it ended while the box was open
            close();
            return;
        }
        // Closes once the cancelled search has reported, and so been recorded.
        connect(this, &MainWindow::searchFinished, this, &QWidget::close, Qt::SingleShotConnection);
        cancelSearch();
    });
    box->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!onnxFileIn(event->mimeData()).isEmpty() || !planFileIn(event->mimeData()).isEmpty() ||
        !problemFileIn(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // A sharding problem opens in its own window; a plan (or an ONNX export carrying one
    // for the model on screen) is opened for the model on screen; a model replaces it.
    if (const QString problem = problemFileIn(event->mimeData()); !problem.isEmpty()) {
        event->acceptProposedAction();
        openFile(problem);
        return;
    }
    if (const QString plan = planFileIn(event->mimeData()); !plan.isEmpty()) {
        event->acceptProposedAction();
        workbench_->openPlanFile(plan);
        return;
    }
    const QString file = onnxFileIn(event->mimeData());
    if (file.isEmpty())
        return;
    event->acceptProposedAction();
    // An ONNX export of a plan for the model on screen opens as that plan.
    if (const auto& folded = session_->folded(); folded && carriesPlanFor(file.toStdString(), *folded)) {
        workbench_->openPlanFile(file);
        return;
    }
    openFile(file);
}

}  // namespace tapestry
