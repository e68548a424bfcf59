#include "sharding/ShardingProblemWindow.h"

#include "charts/CostSplitChart.h"
#include "common/ErrorText.h"
#include "common/QuantityFormat.h"
#include "solver/ShardingSolution.h"
#include "sharding/ShardingSolveJob.h"
#include "sharding/SolutionFile.h"
#include "sharding/SolveProgressChart.h"
#include "sharding/UsageProfileChart.h"
#include "base/Error.h"
#include "solver/ProblemReducer.h"
#include "solver/ShardingSolver.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QStyle>
#include <QScreen>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace tapestry {

namespace {

constexpr int kStatusTimeoutMs = 8000;
// The contest gives each problem a limit the file does not carry; a short default
// shows a good solution quickly, and the spin box goes up to an hour.
constexpr int kDefaultTimeLimitSeconds = 10;

QString count(std::size_t value)
{
    return QuantityFormat::exact(value);
}

std::int64_t timePointCount(const ShardingProblem& problem)
{
    std::int64_t end = 0;
    for (const ProblemNode& node : problem.nodes)
        end = std::max(end, node.hi);
    return end;
}

}  // namespace

ShardingProblemWindow::ShardingProblemWindow(const QString& path, std::shared_ptr<const ShardingProblem> problem,
                                             QWidget* parent)
    : QMainWindow(parent), path_(path), problem_(std::move(problem))
{
    setWindowFlag(Qt::Window);
    setAttribute(Qt::WA_DeleteOnClose);
    setObjectName(QStringLiteral("shardingProblemWindow"));
    setWindowTitle(tr("%1 — Sharding Problem — Tapestry").arg(QFileInfo(path_).fileName()));

    job_ = new ShardingSolveJob(this);
    connect(job_, &ShardingSolveJob::improved, this, &ShardingProblemWindow::onImproved);
    connect(job_, &ShardingSolveJob::bounded, this,
            [this](double seconds, double bound) { progressChart_->addBound(seconds, bound); });
    connect(job_, &ShardingSolveJob::finished, this, &ShardingProblemWindow::onSolved);
    connect(job_, &ShardingSolveJob::failed, this, &ShardingProblemWindow::onSolveFailed);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->addWidget(createProblemSummary());
    sideLayout->addWidget(createSolutionSummary());
    costSplit_ = new CostSplitChart(side);
    sideLayout->addWidget(costSplit_);
    sideLayout->addStretch(1);
    // Wide enough for the cost split's legend and the long numbers of the large problems.
    side->setMinimumWidth(340);

    usageChart_ = new UsageProfileChart(this);
    progressChart_ = new SolveProgressChart(this);
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(usageChart_);
    charts->addWidget(progressChart_);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 1);
    charts->setChildrenCollapsible(false);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);

    solveStatus_ = new QLabel(this);
    solveStatus_->setObjectName(QStringLiteral("solveStatus"));
    solveProgress_ = new QProgressBar(this);
    solveProgress_->setObjectName(QStringLiteral("solveProgress"));
    solveProgress_->setRange(0, 1000);
    solveProgress_->setMaximumWidth(200);
    solveProgress_->setTextVisible(false);
    statusBar()->addPermanentWidget(solveStatus_);
    statusBar()->addPermanentWidget(solveProgress_);
    elapsedTimer_ = new QTimer(this);
    elapsedTimer_->setInterval(100);
    connect(elapsedTimer_, &QTimer::timeout, this, &ShardingProblemWindow::showElapsed);

    createActions();
    setSolving(false);
    showSolution(nullptr, {});
    // Within the screen's free area (a 768 px laptop screen), title bar included.
    const QSize room = screen()->availableGeometry().size() - QSize(0, style()->pixelMetric(QStyle::PM_TitleBarHeight));
    resize(QSize(1280, 800).boundedTo(room));
}

ShardingProblemWindow::~ShardingProblemWindow() = default;

QLabel* ShardingProblemWindow::addValueRow(QFormLayout* form, const QString& label, const QString& objectName)
{
    auto* value = new QLabel(this);
    value->setObjectName(objectName);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(label, value);
    return value;
}

QWidget* ShardingProblemWindow::createProblemSummary()
{
    auto* box = new QGroupBox(tr("Problem"), this);
    auto* form = new QFormLayout(box);
    const QString name = QString::fromStdString(problem_->name);
    addValueRow(form, tr("Name:"), QStringLiteral("problemNameValue"))->setText(name.isEmpty() ? tr("unnamed") : name);
    QLabel* file = addValueRow(form, tr("File:"), QStringLiteral("problemFileValue"));
    file->setText(QFileInfo(path_).fileName());
    file->setToolTip(QDir::toNativeSeparators(QFileInfo(path_).absoluteFilePath()));
    addValueRow(form, tr("Nodes:"), QStringLiteral("nodeCountValue"))->setText(count(problem_->nodes.size()));
    addValueRow(form, tr("Edges:"), QStringLiteral("edgeCountValue"))->setText(count(problem_->edges.size()));
    addValueRow(form, tr("Time points:"), QStringLiteral("timePointCountValue"))
        ->setText(count(static_cast<std::size_t>(timePointCount(*problem_))));
    addValueRow(form, tr("Usage limit:"), QStringLiteral("usageLimitValue"))
        ->setText(problem_->usageLimit ? QuantityFormat::exact(static_cast<std::uint64_t>(*problem_->usageLimit))
                                       : tr("none"));
    return box;
}

QWidget* ShardingProblemWindow::createSolutionSummary()
{
    auto* box = new QGroupBox(tr("Solution"), this);
    auto* form = new QFormLayout(box);
    origin_ = addValueRow(form, tr("From:"), QStringLiteral("solutionOriginValue"));
    origin_->setWordWrap(true);
    totalCost_ = addValueRow(form, tr("Total cost:"), QStringLiteral("totalCostValue"));
    QFont bold = totalCost_->font();
    bold.setBold(true);
    totalCost_->setFont(bold);
    nodeCost_ = addValueRow(form, tr("Node costs:"), QStringLiteral("nodeCostValue"));
    edgeCost_ = addValueRow(form, tr("Edge costs:"), QStringLiteral("edgeCostValue"));
    feasibility_ = addValueRow(form, tr("Memory:"), QStringLiteral("feasibilityValue"));
    feasibility_->setWordWrap(true);
    peakUsage_ = addValueRow(form, tr("Peak usage:"), QStringLiteral("peakUsageValue"));
    return box;
}

void ShardingProblemWindow::createActions()
{
    solve_ = new QAction(tr("&Solve"), this);
    solve_->setObjectName(QStringLiteral("solveAction"));
    solve_->setShortcut(QKeySequence(Qt::Key_F5));
    solve_->setToolTip(tr("Solve the problem in the background within the time limit (F5)"));
    connect(solve_, &QAction::triggered, this, &ShardingProblemWindow::startSolve);
    cancel_ = new QAction(tr("&Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelSolveAction"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setToolTip(tr("Stop the solver and keep the best solution found so far (Esc)"));
    connect(cancel_, &QAction::triggered, this, &ShardingProblemWindow::cancelSolve);
    load_ = new QAction(tr("&Load Solution…"), this);
    load_->setShortcut(QKeySequence::Open);
    connect(load_, &QAction::triggered, this, &ShardingProblemWindow::chooseSolutionToLoad);
    save_ = new QAction(tr("Save Solution &As…"), this);
    save_->setShortcut(QKeySequence::SaveAs);
    connect(save_, &QAction::triggered, this, &ShardingProblemWindow::chooseSolutionToSave);

    timeLimit_ = new QSpinBox(this);
    timeLimit_->setObjectName(QStringLiteral("timeLimitBox"));
    timeLimit_->setRange(1, 3600);
    timeLimit_->setValue(kDefaultTimeLimitSeconds);
    timeLimit_->setSuffix(tr(" s", "seconds after a number"));
    timeLimit_->setToolTip(tr("How long the solver may search"));

    QMenu* menu = menuBar()->addMenu(tr("&Solution"));
    menu->addAction(solve_);
    menu->addAction(cancel_);
    menu->addSeparator();
    menu->addAction(load_);
    menu->addAction(save_);
    menu->addSeparator();
    QAction* close = menu->addAction(tr("&Close Window"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);

    QToolBar* toolBar = addToolBar(tr("Solve"));
    toolBar->setObjectName(QStringLiteral("solveToolBar"));
    toolBar->setMovable(false);
    toolBar->addWidget(new QLabel(tr("Time limit:"), toolBar));
    toolBar->addWidget(timeLimit_);
    toolBar->addAction(solve_);
    toolBar->addAction(cancel_);
    toolBar->addSeparator();
    toolBar->addAction(load_);
    toolBar->addAction(save_);
}

void ShardingProblemWindow::closeEvent(QCloseEvent* event)
{
    if (!job_->isBusy()) {
        event->accept();
        return;
    }
    event->ignore();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Solve Running"),
                                tr("The solver is still running. Cancel it and close the window?"),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("closeWhileSolvingBox"));
    QPushButton* stop = box->addButton(tr("Cancel Solve and Close"), QMessageBox::AcceptRole);
    box->setDefaultButton(box->addButton(tr("Keep Solving"), QMessageBox::RejectRole));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton* clicked) {
        if (clicked != stop)
            return;
        if (!job_->isBusy()) {  // it ended while the box was open
            close();
            return;
        }
        // The solver may take a while to stop, and deleting the job waits for it: the
        // window goes at once and is deleted when the solve has ended.
        job_->cancel();
        hide();
        connect(this, &ShardingProblemWindow::solveFinished, this, &QObject::deleteLater);
    });
    box->open();
}

bool ShardingProblemWindow::isSolving() const
{
    return job_->isBusy();
}

void ShardingProblemWindow::startSolve()
{
    if (job_->isBusy())
        return;
    const double limit = timeLimit_->value();
    bestSoFar_ = -1;
    cancelling_ = false;
    progressChart_->start(limit);
    job_->start(problem_, limit);
    solveClock_.start();
    setSolving(true);
    showElapsed();
}

void ShardingProblemWindow::cancelSolve()
{
    if (!job_->isBusy())
        return;
    job_->cancel();
    cancelling_ = true;
    solveStatus_->setText(tr("Cancelling…"));
}

void ShardingProblemWindow::setSolving(bool solving)
{
    solve_->setEnabled(!solving);
    cancel_->setEnabled(solving);
    timeLimit_->setEnabled(!solving);
    // A solution loaded now would be replaced by the solver's a moment later.
    load_->setEnabled(!solving);
    solveStatus_->setVisible(solving);
    solveProgress_->setVisible(solving);
    if (solving)
        elapsedTimer_->start();
    else
        elapsedTimer_->stop();
}

void ShardingProblemWindow::showElapsed()
{
    const double seconds = static_cast<double>(solveClock_.elapsed()) / 1000.0;
    solveProgress_->setValue(static_cast<int>(std::min(1.0, seconds / timeLimit_->value()) * 1000));
    if (!cancelling_)
        solveStatus_->setText(bestSoFar_ < 0 ? tr("Solving: %L1 s, searching for a plan within the limit…")
                                                   .arg(seconds, 0, 'f', 0)
                                             : tr("Solving: %L1 s, best cost %L2")
                                                   .arg(seconds, 0, 'f', 0)
                                                   .arg(bestSoFar_, 0, 'f', 0));
}

void ShardingProblemWindow::onImproved(double seconds, double cost)
{
    // A forbidden cost (kCostCap and up) is the solver's placeholder, not a plan.
    if (cost >= static_cast<double>(kCostCap))
        return;
    bestSoFar_ = cost;
    progressChart_->addBest(seconds, cost);
    showElapsed();
}

void ShardingProblemWindow::onSolved(const std::shared_ptr<const SolveOutcome>& outcome)
{
    setSolving(false);
    const double cost = static_cast<double>(outcome->solution.evaluation.cost);
    progressChart_->addBest(outcome->seconds, cost);
    progressChart_->addBound(outcome->seconds, static_cast<double>(outcome->lowerBound));
    QString origin = outcome->cancelled ? tr("Solver, cancelled after %L1 s").arg(outcome->seconds, 0, 'f', 1)
                                        : tr("Solver, %L1 s").arg(outcome->seconds, 0, 'f', 1);
    if (outcome->provenOptimal)
        origin = tr("%1, proven optimal").arg(origin);
    else
        origin = tr("%1, within %L2 % of the optimum")
                     .arg(origin)
                     .arg(100.0 * optimalityGap(outcome->solution.evaluation.cost, outcome->lowerBound), 0, 'g', 3);
    showSolution(std::make_shared<const ShardingSolution>(outcome->solution), origin);
    statusBar()->showMessage(tr("Solved: cost %1.").arg(QuantityFormat::cost(outcome->solution.evaluation.cost)),
                             kStatusTimeoutMs);
    emit solveFinished();
}

void ShardingProblemWindow::onSolveFailed(const QString& problem, const QString& detail)
{
    setSolving(false);
    statusBar()->showMessage(tr("The solver failed: %1").arg(problem), kStatusTimeoutMs);
    reportProblem(QStringLiteral("solveErrorBox"), tr("Could Not Solve"),
                  tr("Could not solve %1.").arg(QFileInfo(path_).fileName()), problem + u"\n\n" + detail);
    emit solveFinished();
}

void ShardingProblemWindow::showSolution(std::shared_ptr<const ShardingSolution> solution, const QString& origin)
{
    solution_ = std::move(solution);
    save_->setEnabled(solution_ != nullptr);
    usageChart_->setSolution(solution_, problem_->usageLimit);
    if (!solution_) {
        origin_->setText(tr("None yet: solve, or load a solution file."));
        for (QLabel* label : {totalCost_, nodeCost_, edgeCost_, feasibility_, peakUsage_})
            label->setText(QStringLiteral("—"));
        costSplit_->setEvaluation(nullptr);
        return;
    }
    const SolutionEvaluation& evaluation = solution_->evaluation;
    origin_->setText(origin);
    totalCost_->setText(QuantityFormat::cost(evaluation.cost));
    nodeCost_->setText(QuantityFormat::cost(evaluation.nodeCost));
    edgeCost_->setText(QuantityFormat::cost(evaluation.edgeCost));
    if (evaluation.feasible) {
        feasibility_->setText(problem_->usageLimit ? tr("Fits the limit") : tr("No limit to fit"));
        feasibility_->setStyleSheet({});
    } else {
        feasibility_->setText(tr("Over the limit: first at time point %L1 (usage %2)")
                                  .arg(evaluation.firstViolation.value_or(0))
                                  .arg(QuantityFormat::exact(static_cast<std::uint64_t>(evaluation.violationUsage))));
        feasibility_->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    }
    peakUsage_->setText(QuantityFormat::exact(static_cast<std::uint64_t>(evaluation.peakUsage)));
    costSplit_->setEvaluation(&evaluation);
}

void ShardingProblemWindow::chooseSolutionToLoad()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Load Solution"), QFileInfo(path_).absolutePath(),
                                                      tr("Solutions (*.txt *.out *.sol);;All files (*)"));
    if (!file.isEmpty())
        loadSolution(file);
}

void ShardingProblemWindow::chooseSolutionToSave()
{
    const QString suggested = QFileInfo(path_).absoluteDir().filePath(
        QString::fromStdString(problem_->name.empty() ? "solution" : problem_->name) + QStringLiteral(".solution.txt"));
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Save Solution"), suggested, tr("Solutions (*.txt);;All files (*)"));
    if (!file.isEmpty())
        saveSolution(file);
}

void ShardingProblemWindow::loadSolution(const QString& file)
{
    const QString fileName = QFileInfo(file).fileName();
    try {
        auto solution = std::make_shared<const ShardingSolution>(ShardingSolution::evaluate(*problem_, SolutionFile::read(file)));
        showSolution(std::move(solution), tr("File %1").arg(fileName));
        statusBar()->showMessage(tr("Loaded the solution in %1.").arg(fileName), kStatusTimeoutMs);
    } catch (const Error& error) {
        const bool unreadable = error.code() != ErrorCode::InvalidJson && error.code() != ErrorCode::InvalidArgument;
        const QString problem = unreadable ? ErrorText::problem(error)
                                           : tr("The last line of the file is not a solution of this problem: it "
                                                "must list one strategy per node, like [0, 2, 1].");
        reportProblem(QStringLiteral("solutionErrorBox"), tr("Could Not Load Solution"),
                      tr("Could not load a solution from %1.").arg(fileName),
                      problem + u"\n\n" + QDir::toNativeSeparators(file) + u"\n" + ErrorText::detail(error));
    }
}

void ShardingProblemWindow::saveSolution(const QString& file)
{
    if (!solution_)
        return;
    try {
        SolutionFile::write(file, solution_->assignment);
        statusBar()->showMessage(tr("Saved the solution to %1.").arg(QFileInfo(file).fileName()), kStatusTimeoutMs);
    } catch (const Error& error) {
        reportProblem(QStringLiteral("solutionErrorBox"), tr("Could Not Save Solution"),
                      tr("Could not save the solution to %1.").arg(QFileInfo(file).fileName()),
                      ErrorText::problem(error) + u"\n\n" + ErrorText::detail(error));
    }
}

void ShardingProblemWindow::reportProblem(const QString& objectName, const QString& title, const QString& text,
                                          const QString& informative)
{
    // Not exec(): the window stays responsive and tests can inspect the box.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(informative);
    box->open();
}

}  // namespace tapestry
