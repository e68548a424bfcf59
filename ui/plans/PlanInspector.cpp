#include "plans/PlanInspector.h"

#include "charts/BreakdownCharts.h"
#include "charts/PipelineTimeline.h"
#include "fold/FoldedModel.h"
#include "plans/NodeCostFilterModel.h"
#include "plans/NodeCostModel.h"
#include "plans/ParallelTrafficModel.h"
#include "plans/PlanSummary.h"
#include "plans/PlanThroughput.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <array>

namespace tapestry {

namespace {

// The node column keeps room for a path's end, "…/self_attn/q_proj/MatMul" (node names
// are Latin whatever the language).
int nodeColumnWidth(const QTableView& table)
{
    return table.fontMetrics().horizontalAdvance(QStringLiteral("…/self_attn/q_proj/MatMul")) + 12;
}

}  // namespace

QString PlanInspector::workloadText(const PlanCandidate& candidate)
{
    const Workload& workload = candidate.workload;
    QString batch = tr("batch %L1").arg(workload.batch);
    if (candidate.batchSource == ShapeBinder::Source::Default)
        batch += tr(" (default)");
    QString sequence = tr("%L1 tokens").arg(workload.sequence);
    if (candidate.sequenceSource == ShapeBinder::Source::Default)
        sequence += tr(" (default)");
    const QString microBatch =
        workload.microBatch > 0 ? tr("micro-batch %L1").arg(workload.microBatch) : tr("no micro-batches");
    const QString recompute = workload.recompute == Recomputation::Full        ? tr("full recomputation")
                              : workload.recompute == Recomputation::Selective ? tr("selective recomputation")
                                                                               : tr("no recomputation");
    QString text = tr("Priced for %1 × %2, %3, %4, ZeRO stage %5")
                       .arg(batch, sequence, microBatch, recompute)
                       .arg(workload.zeroStage);
    if (workload.zeroStage >= 2 && workload.zeroReplicas > 1)
        text += tr(" (HSDP: %1 replicas of a shard group)").arg(workload.zeroReplicas);
    return text;
}

PlanInspector::PlanInspector(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("planInspector"));
    title_ = new QLabel(tr("Open a plan from the search results to inspect it."), this);
    title_->setObjectName(QStringLiteral("inspectorTitle"));
    title_->setWordWrap(true);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("inspectorSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->hide();
    family_ = new QComboBox(this);
    family_->setObjectName(QStringLiteral("inspectorFamily"));
    family_->setToolTip(tr("Show the nodes of one repeated block (all its instances)"));
    family_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    search_ = new QLineEdit(this);
    search_->setObjectName(QStringLiteral("inspectorSearch"));
    search_->setPlaceholderText(tr("Filter nodes by name…"));
    search_->setClearButtonEnabled(true);

    model_ = new NodeCostModel(this);
    filter_ = new NodeCostFilterModel(this);
    filter_->setSourceModel(model_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("inspectorTable"));
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // graph order until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideLeft);  // the end of a path names the module
    totals_ = new QLabel(this);
    totals_->setObjectName(QStringLiteral("inspectorTotals"));

    charts_ = new BreakdownCharts(this);

    // The block and name filters sit beside the tabs (shown with Costs, whose table they
    // filter): on a laptop the table keeps a row more.
    auto* filters = new QWidget(this);
    auto* bar = new QHBoxLayout(filters);
    bar->setContentsMargins(8, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Block:"), this));
    bar->addWidget(family_);
    bar->addWidget(search_, 1);
    auto* tablePane = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    tableLayout->addWidget(totals_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tablePane);
    // On a short screen the charts scroll rather than shrink until unreadable.
    auto* chartScroll = new QScrollArea(this);
    chartScroll->setWidget(charts_);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(chartScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 520});
    split->setChildrenCollapsible(false);

    timeline_ = new PipelineTimeline(this);

    trafficModel_ = new ParallelTrafficModel(this);
    auto* trafficSort = new QSortFilterProxyModel(this);
    trafficSort->setSourceModel(trafficModel_);
    trafficSort->setSortRole(ParallelTrafficModel::SortRole);
    auto* trafficTable = new QTableView(this);
    trafficTable->setObjectName(QStringLiteral("inspectorTraffic"));
    trafficTable->setModel(trafficSort);
    trafficTable->setSortingEnabled(true);
    trafficTable->sortByColumn(-1, Qt::AscendingOrder);  // layer order until a header is clicked
    trafficTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    trafficTable->setAlternatingRowColors(true);
    trafficTable->verticalHeader()->hide();
    trafficTable->verticalHeader()->setDefaultSectionSize(trafficTable->fontMetrics().height() + 6);
    trafficTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    trafficTable->setWordWrap(false);
    trafficSummary_ = new QLabel(this);
    trafficSummary_->setObjectName(QStringLiteral("inspectorTrafficSummary"));
    trafficSummary_->setWordWrap(true);
    trafficPane_ = new QWidget(this);
    auto* trafficLayout = new QVBoxLayout(trafficPane_);
    trafficLayout->setContentsMargins(0, 0, 0, 0);
    trafficLayout->addWidget(trafficSummary_);
    trafficLayout->addWidget(trafficTable, 1);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("inspectorTabs"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(split, tr("Costs"));
    tabs_->addTab(timeline_, tr("Pipeline Schedule"));
    tabs_->addTab(trafficPane_, tr("Ring Attention and All-to-Alls"));
    tabs_->setTabEnabled(1, false);
    tabs_->setTabEnabled(2, false);
    tabs_->setCornerWidget(filters, Qt::TopRightCorner);
    connect(tabs_, &QTabWidget::currentChanged, filters, [this, filters] { filters->setVisible(tabs_->currentIndex() == 0); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addWidget(summary_);
    layout->addWidget(tabs_, 1);

    connect(family_, &QComboBox::currentIndexChanged, this, [this] {
        filter_->setFamily(family_->currentData().isValid() ? family_->currentData().toInt()
                                                            : NodeCostFilterModel::kAnyFamily);
    });
    connect(search_, &QLineEdit::textChanged, filter_, &QSortFilterProxyModel::setFilterFixedString);
    connect(filter_, &QAbstractItemModel::modelReset, this, &PlanInspector::updateTotals);
    connect(filter_, &QAbstractItemModel::rowsInserted, this, &PlanInspector::updateTotals);
    connect(filter_, &QAbstractItemModel::rowsRemoved, this, &PlanInspector::updateTotals);
    connect(filter_, &QAbstractItemModel::layoutChanged, this, &PlanInspector::updateTotals);
}

void PlanInspector::setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate,
                            const SearchSetup* setup)
{
    const bool sameModel = folded == folded_;
    folded_ = std::move(folded);
    candidate_ = std::move(candidate);
    if (!sameModel) {
        const QSignalBlocker blocker(family_);
        family_->clear();
        family_->addItem(tr("All nodes"), NodeCostFilterModel::kAnyFamily);
        if (folded_) {
            for (const Family& family : folded_->families.families) {
                family_->addItem(tr("%1 ×%2").arg(QString::fromStdString(family.name)).arg(family.multiplicity()),
                                 static_cast<int>(family.id.index()));
            }
        }
        family_->addItem(tr("Outside repeated blocks"), NodeCostFilterModel::kNoFamily);
        filter_->setFamily(NodeCostFilterModel::kAnyFamily);
        search_->clear();  // the names of another model's nodes
    }
    model_->setPlan(folded_, candidate_);
    if (model_->columnCount() > 0) {  // a header without sections cannot take a mode
        // On a laptop the costs beside it show.
        table_->horizontalHeader()->setSectionResizeMode(NodeCostModel::NodeColumn, QHeaderView::Interactive);
        table_->horizontalHeader()->resizeSection(NodeCostModel::NodeColumn, nodeColumnWidth(*table_));
    }
    charts_->setPlan(folded_, candidate_);
    timeline_->setPlan(candidate_);
    tabs_->setTabEnabled(1, timeline_->hasPipeline());
    updateTraffic();
    if (!tabs_->isTabEnabled(tabs_->currentIndex()))
        tabs_->setCurrentIndex(0);
    if (!candidate_) {
        title_->setText(tr("Open a plan from the search results to inspect it."));
        title_->setToolTip({});
        summary_->hide();
        return;
    }
    std::optional<Throughput> throughput;
    if (setup && folded_)
        throughput = PlanThroughput(folded_, *setup).of(*candidate_);
    const QString rate = throughput ? tr(", %1").arg(PlanThroughput::text(*throughput)) : QString();
    QString title = tr("<b>%1</b> (%2) on %3: step %L4 ms%5, peak memory %L6 GB per device")
                        .arg(SearchResultsModel::planLabel(*candidate_).toHtmlEscaped(),
                             SearchResultsModel::roleLabel(*candidate_).toHtmlEscaped(),
                             QString::fromStdString(candidate_->meshText).toHtmlEscaped())
                        .arg(candidate_->stepSeconds() * 1e3, 0, 'f', 1)
                        .arg(rate.toHtmlEscaped())
                        .arg(candidate_->memoryBytes() / 1e9, 0, 'f', 2);
    if (throughput && PlanThroughput::abovePeak(*throughput))
        title = QStringLiteral("<span style=\"color:#c62828\">⚠ %1</span>").arg(title);
    // The workload in the tooltip: the summary below says its ZeRO stage and
    // recomputation, and the inspector keeps its height for the table.
    title_->setText(title);
    title_->setToolTip(setup && folded_ ? workloadText(*candidate_) + u'\n' +
                                              PlanSummary::runsOnText(*candidate_, *folded_, *setup)
                                        : workloadText(*candidate_));
    const QString summary = setup && folded_ ? PlanSummary::text(*candidate_, folded_->coarse, setup->cluster) : QString();
    summary_->setText(summary);
    summary_->setVisible(!summary.isEmpty());
}

void PlanInspector::updateTraffic()
{
    trafficModel_->setPlan(folded_, candidate_);
    const bool any = trafficModel_->rowCount() > 0;
    tabs_->setTabEnabled(tabs_->indexOf(trafficPane_), any);
    if (!any) {
        trafficSummary_->clear();
        return;
    }
    // Per technique: the whole plan's time, and the first layer's (the numbers a closed
    // form checks).
    using Technique = ParallelTrafficModel::Technique;
    const QString firstLayer = trafficModel_->rows().front().layer;
    std::array<double, 3> total{};
    std::array<double, 3> layer{};
    double ringHidden = 0;
    for (const ParallelTrafficModel::Row& row : trafficModel_->rows()) {
        const auto technique = static_cast<std::size_t>(row.technique());
        total[technique] += row.seconds;
        layer[technique] += row.layer == firstLayer ? row.seconds : 0.0;
        if (row.technique() == Technique::RingAttention)
            ringHidden += row.seconds - row.exposedSeconds;
    }
    const auto ms = [](double seconds) { return QStringLiteral("%L1").arg(seconds * 1e3, 0, 'f', 4); };
    const auto ring = static_cast<std::size_t>(Technique::RingAttention);
    const auto ulysses = static_cast<std::size_t>(Technique::Ulysses);
    const auto experts = static_cast<std::size_t>(Technique::Experts);
    trafficSummary_->setText(
        tr("Per device and step, as the cost model counts them: ring attention %1 ms (%2 ms of it hidden under "
           "the attention of the chunk in hand), Ulysses all-to-alls %3 ms, expert all-to-alls %4 ms (these two "
           "never hidden). In %5: ring attention %6 ms, Ulysses %7 ms, experts %8 ms.")
            .arg(ms(total[ring]), ms(ringHidden), ms(total[ulysses]), ms(total[experts]), firstLayer,
                 ms(layer[ring]), ms(layer[ulysses]), ms(layer[experts])));
}

void PlanInspector::updateTotals()
{
    // Of every node they are the plan's (the chart's whole step): the table keeps that row.
    totals_->setVisible(candidate_ && filter_->rowCount() < model_->rowCount());
    if (!candidate_) {
        totals_->clear();
        return;
    }
    double compute = 0;
    double communication = 0;
    double memory = 0;
    for (int row = 0; row < filter_->rowCount(); ++row) {
        compute += filter_->index(row, model_->computeColumn()).data(NodeCostModel::SortRole).toDouble();
        communication += filter_->index(row, model_->communicationColumn()).data(NodeCostModel::SortRole).toDouble();
        memory += filter_->index(row, model_->memoryColumn()).data(NodeCostModel::SortRole).toDouble();
    }
    // On a pipeline each stage's devices run only their stage's nodes: a sum over the
    // nodes of every stage is no device's time (16 stages: 16 times a step) nor memory.
    if (candidate_->plan.pipeline.active()) {
        totals_->setText(tr("%Ln node(s) shown: compute %L1 ms and communication %L2 ms summed over the %4 stages; "
                            "peak memory %L3 GB per device (the busiest stage)",
                            nullptr, filter_->rowCount())
                             .arg(compute, 0, 'f', 1)
                             .arg(communication, 0, 'f', 1)
                             .arg(candidate_->memoryBytes() / 1e9, 0, 'f', 2)
                             .arg(candidate_->plan.pipeline.stages));
        return;
    }
    totals_->setText(tr("%Ln node(s) shown: compute %L1 ms, communication %L2 ms, memory %L3 GB", nullptr,
                        filter_->rowCount())
                         .arg(compute, 0, 'f', 1)
                         .arg(communication, 0, 'f', 1)
                         .arg(memory, 0, 'f', 2));
}

}  // namespace tapestry
