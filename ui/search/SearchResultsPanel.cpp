#include "search/SearchResultsPanel.h"

#include "common/MiddleElidingDelegate.h"
#include "plans/PlanInspector.h"
#include "plans/PlanSummary.h"
#include "search/ParetoChartView.h"
#include "search/SearchOutcome.h"
#include "plans/PlanThroughput.h"
#include "search/SearchResultsModel.h"
#include "search/SearchResultsSortModel.h"
#include "search/WhyThisPlan.h"

#include <QHeaderView>
#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace tapestry {

namespace {

QString capitalized(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

}  // namespace

QString SearchResultsPanel::idleMessage()
{
    return tr("Press Start Search (F5) to search plans for the model on screen.");
}

SearchResultsPanel::SearchResultsPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("searchResults"));
    message_ = new QLabel(idleMessage(), this);
    message_->setObjectName(QStringLiteral("searchMessage"));
    message_->setWordWrap(true);
    workload_ = new QLabel(this);
    workload_->setObjectName(QStringLiteral("searchWorkload"));
    workload_->setWordWrap(true);
    workload_->setForegroundRole(QPalette::PlaceholderText);
    techniques_ = new QLabel(this);
    techniques_->setObjectName(QStringLiteral("searchTechniques"));
    techniques_->setWordWrap(true);
    techniques_->hide();
    peakWarning_ = new QLabel(this);
    peakWarning_->setObjectName(QStringLiteral("peakWarning"));
    peakWarning_->setWordWrap(true);
    peakWarning_->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    peakWarning_->hide();

    model_ = new SearchResultsModel(this);
    sorted_ = new SearchResultsSortModel(this);
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(SearchResultsModel::SortRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("searchResultsTable"));
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SearchResultsModel::StepColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    // The numbers and meshes keep their width; the plan's name and role share what is left
    // and are cut (the tooltip has them whole), so no column ends beyond the view on a laptop.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SearchResultsModel::PlanColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(SearchResultsModel::OriginColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(fontMetrics().averageCharWidth() * 6);
    table_->setWordWrap(false);
    // A plan's name is cut in the middle, so that it keeps the search that found it and its
    // number ("mega…ut-2": megatron-layout-2); the other columns at the right.
    table_->setItemDelegateForColumn(SearchResultsModel::PlanColumn, new MiddleElidingDelegate(table_));
    table_->setToolTip(tr("Click a plan to inspect it."));
    table_->installEventFilter(this);

    chart_ = new ParetoChartView(this);
    chart_->setToolTip(tr("Click a point to inspect its plan."));

    // The list takes the panel's whole height (on a laptop the panel is a quarter of the
    // screen: text above it left three rows). Beside it, as tabs, why the search chose
    // its plan (the workload, the comparisons) and the chart.
    auto* why = new QWidget(this);
    auto* whyLayout = new QVBoxLayout(why);
    whyLayout->setContentsMargins(4, 4, 4, 4);
    whyLayout->addWidget(workload_);
    whyLayout->addWidget(techniques_);
    whyLayout->addStretch(1);
    auto* whyScroll = new QScrollArea(this);
    whyScroll->setWidget(why);
    whyScroll->setWidgetResizable(true);
    whyScroll->setFrameShape(QFrame::NoFrame);
    side_ = new QTabWidget(this);
    side_->setObjectName(QStringLiteral("searchSide"));
    side_->setDocumentMode(true);
    side_->addTab(whyScroll, tr("Why this plan"));
    side_->addTab(chart_, tr("Step vs. memory"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(side_);
    // The list takes two thirds: its columns must not end beyond the view on a laptop.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setSizes({1400, 700});
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(message_);
    layout->addWidget(peakWarning_);
    layout->addWidget(split, 1);

    connect(table_, &QTableView::clicked, this, &SearchResultsPanel::openRow);
    connect(table_, &QTableView::activated, this, &SearchResultsPanel::openRow);
    connect(chart_, &ParetoChartView::candidateClicked, this, [this](std::shared_ptr<const PlanCandidate> candidate) {
        const int row = model_->rowOf(candidate.get());
        if (row >= 0)
            table_->selectRow(sorted_->mapFromSource(model_->index(row, 0)).row());
        emit candidateOpened(std::move(candidate));
    });
}

bool SearchResultsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == table_ && event->type() == QEvent::Resize) {
        // On a laptop the role is in the plan's tooltip, tokens/s in MFU's, and a plan that
        // does not fit has its memory in red: the plan's name keeps room beside a pipelined
        // mesh's ("[2, 4, 2, 1] (pp, dp, cp, tp)"), in German too.
        const int characters = table_->width() / table_->fontMetrics().averageCharWidth();
        table_->setColumnHidden(SearchResultsModel::OriginColumn, characters < 110);
        table_->setColumnHidden(SearchResultsModel::TokensColumn, characters < 100);
        table_->setColumnHidden(SearchResultsModel::FitsColumn, characters < 100);
    }
    return QWidget::eventFilter(watched, event);
}

void SearchResultsPanel::setResults(std::shared_ptr<const SearchOutcome> results)
{
    if (!results || results->finished)
        bestSoFar_.reset();
    else
        results = withSteadyBestSoFar(std::move(results));
    model_->setResults(results);
    chart_->setResults(results);
    const int abovePeak = model_->rowsAbovePeak();
    peakWarning_->setText(tr("⚠ %n plan(s) price above the GPU's peak (MFU over 100 %): a defect of the cost "
                             "model, not a result; do not trust their step times.",
                             nullptr, abovePeak));
    peakWarning_->setVisible(abovePeak > 0);
    // The workload of the plan the search hands out (each row's tooltip has its own).
    const std::shared_ptr<const PlanCandidate> shown =
        !results ? nullptr : results->best() ? results->best() : results->candidates.empty() ? nullptr : results->candidates.front();
    workload_->setText(shown ? PlanInspector::workloadText(*shown) : QString());
    // Which stacks run the plan the search hands out, once it is final. It rebuilds the
    // plan per stack: not for every snapshot, and after the window has shown the end.
    if (shown && results->finished && folded_ && setup_)
        QMetaObject::invokeMethod(this, [this, shown, results] {
            if (model_->results() == results)
                workload_->setText(PlanInspector::workloadText(*shown) + QStringLiteral(".\n") +
                                   capitalized(PlanSummary::runsOnText(*shown, *folded_, *setup_)) + u'.');
        }, Qt::QueuedConnection);
    techniques_->hide();
    if (!results) {  // a new model or a new search: nothing of the last one stays
        message_->setText(idleMessage());
        return;
    }
    if (results->finished) {
        showComparisons(*results);
        return;
    }
    if (const std::shared_ptr<const PlanCandidate> best = results->best();
        best && best->memoryBytes() <= results->memoryLimitBytes)
        message_->setText(tr("Searching… the fastest plan so far that fits: %L1 ms on %2 (provisional: the search "
                             "prices its final plans again and the best one can differ).")
                              .arg(best->stepSeconds() * 1e3, 0, 'f', 1)
                              .arg(QString::fromStdString(best->meshText)));
    else
        message_->setText(tr("Searching for a plan that fits in %L1 GB per device… none found yet.")
                              .arg(results->memoryLimitBytes / 1e9, 0, 'f', 1));
}

std::shared_ptr<const SearchOutcome> SearchResultsPanel::withSteadyBestSoFar(std::shared_ptr<const SearchOutcome> results)
{
    const double limit = results->memoryLimitBytes;
    const auto fits = [limit](const PlanCandidate& candidate) { return candidate.memoryBytes() <= limit; };
    double fastestListed = std::numeric_limits<double>::infinity();  // of the meshes searched to the end
    for (const auto& candidate : results->candidates) {
        if (candidate->role == PlanCandidate::Role::BestSoFar) {
            if (fits(*candidate) && (!bestSoFar_ || candidate->stepSeconds() < bestSoFar_->stepSeconds()))
                bestSoFar_ = candidate;
        } else if (candidate->isSearched() && fits(*candidate)) {
            fastestListed = std::min(fastestListed, candidate->stepSeconds());
        }
    }
    auto shown = std::make_shared<SearchOutcome>(*results);
    std::erase_if(shown->candidates, [](const auto& candidate) { return candidate->role == PlanCandidate::Role::BestSoFar; });
    if (bestSoFar_ && bestSoFar_->stepSeconds() < fastestListed)
        shown->candidates.push_back(bestSoFar_);
    return shown;
}

void SearchResultsPanel::showComparisons(const SearchOutcome& results)
{
    const std::shared_ptr<const PlanCandidate> best = results.best();
    QStringList lines;
    for (const TechniqueComparison& comparison : results.comparisons) {
        const QString technique =
            comparison.technique == ParallelTechnique::Context ? tr("context parallelism") : tr("expert parallelism");
        const PlanCandidate* without = comparison.without.get();
        // The plan without the technique may lie on a mesh of its own (a stack's layout),
        // or on the best plan's with its axes named otherwise.
        const QString mesh = QString::fromStdString(without ? without->meshText
                                                            : best ? best->meshText : std::string());
        if (!without)
            lines << tr("Why %1 (degree %2): without it the search finds no plan on %3.")
                         .arg(technique)
                         .arg(comparison.degree)
                         .arg(mesh);
        else if (without->memoryBytes() > results.memoryLimitBytes)
            lines << tr("Why %1 (degree %2): without it no plan on %3 fits; the closest (%6) needs %L4 GB of the %L5 GB.")
                         .arg(technique)
                         .arg(comparison.degree)
                         .arg(mesh)
                         .arg(without->memoryBytes() / 1e9, 0, 'f', 1)
                         .arg(results.memoryLimitBytes / 1e9, 0, 'f', 1)
                         .arg(SearchResultsModel::planLabel(*without));
        else if (best)
            lines << tr("Why %1 (degree %2): without it the best plan on %3 (%6) takes %L4 ms, %L5 % longer.")
                         .arg(technique)
                         .arg(comparison.degree)
                         .arg(mesh)
                         .arg(without->stepSeconds() * 1e3, 0, 'f', 1)
                         .arg((without->stepSeconds() / best->stepSeconds() - 1) * 100, 0, 'f', 1)
                         .arg(SearchResultsModel::planLabel(*without));
    }
    if (const std::shared_ptr<const PlanCandidate> expert = WhyThisPlan::bestExpert(results); best && expert)
        lines.prepend(WhyThisPlan::text(*best, *expert));
    techniques_->setText(lines.join(QLatin1Char('\n')));
    techniques_->setVisible(!lines.isEmpty());
}

void SearchResultsPanel::setPricing(std::shared_ptr<const FoldedModel> folded, const SearchSetup* setup)
{
    folded_ = folded && setup ? folded : nullptr;
    setup_ = folded && setup ? std::optional<SearchSetup>(*setup) : std::nullopt;
    model_->setThroughput(folded && setup ? std::make_shared<PlanThroughput>(std::move(folded), *setup) : nullptr);
}

void SearchResultsPanel::setMessage(const QString& text)
{
    message_->setText(text);
}

void SearchResultsPanel::openRow(const QModelIndex& proxyIndex)
{
    if (auto candidate = model_->candidate(sorted_->mapToSource(proxyIndex).row()))
        emit candidateOpened(std::move(candidate));
}

}  // namespace tapestry
