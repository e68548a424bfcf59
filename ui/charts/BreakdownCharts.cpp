#include "charts/BreakdownCharts.h"

#include "charts/ChartViews.h"
#include "fold/FoldedModel.h"
#include "plans/PlanOverlay.h"
#include "search/SearchOutcome.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace tapestry {

namespace {

const QColor kComponentColors[] = {
    {0x4c, 0xaf, 0x50},  // compute
    {0x1e, 0x88, 0xe5},  // all-reduce
    {0xfb, 0x8c, 0x00},  // all-gather
    {0x8e, 0x24, 0xaa},  // reduce-scatter
    {0xe5, 0x39, 0x35},  // all-to-all
};

const QColor kMemoryColors[] = {
    {0x5c, 0x6b, 0xc0},  // parameters
    {0x26, 0xa6, 0x9a},  // gradients
    {0xff, 0xa7, 0x26},  // optimizer states
    {0xab, 0x47, 0xbc},  // activations
    {0x8d, 0x6e, 0x63},  // transient
};

}  // namespace

BreakdownCharts::BreakdownCharts(QWidget* parent) : QWidget(parent)
{
    time_ = makeChartView(this, QStringLiteral("timeBreakdownChart"));
    memory_ = makeChartView(this, QStringLiteral("memoryBreakdownChart"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(time_, 1);
    layout->addWidget(memory_, 1);
}

void BreakdownCharts::setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate)
{
    clearChart(time_->chart());
    clearChart(memory_->chart());
    time_->chart()->setTitle({});
    memory_->chart()->setTitle({});
    if (!folded || !candidate)
        return;
    showTime(*folded, *candidate);
    showMemory(*candidate);
}

void BreakdownCharts::showTime(const FoldedModel& folded, const PlanCandidate& candidate)
{
    QChart* chart = time_->chart();
    // Bars from top to bottom: the whole step, then each top-level block (all its
    // instances), then what lies outside the blocks.
    QStringList categories;
    std::vector<TimeBreakdown> rows;
    const TimeBreakdown& total = candidate.evaluation.total.time;
    categories << tr("Whole step");
    rows.push_back(total);
    TimeBreakdown outside;
    for (const CoarseNodeId node : folded.families.unfoldedNodes)
        outside.add(candidate.evaluation.perNode.at(node.index()).time);
    for (const Family& family : folded.families.families) {
        if (family.parent.isValid())
            continue;
        categories << tr("%1 ×%2").arg(QString::fromStdString(family.name)).arg(family.multiplicity());
        rows.push_back(candidate.evaluation.perFamily.at(family.id.index()).time);
    }
    categories << tr("Outside blocks");
    rows.push_back(outside);
    // A horizontal bar chart draws its first category at the bottom: reverse.
    std::reverse(categories.begin(), categories.end());
    std::reverse(rows.begin(), rows.end());

    auto* series = new QHorizontalStackedBarSeries(chart);
    const QString names[] = {tr("Compute"), PlanOverlay::collectiveName(CollectiveKind::AllReduce),
                             PlanOverlay::collectiveName(CollectiveKind::AllGather),
                             PlanOverlay::collectiveName(CollectiveKind::ReduceScatter),
                             PlanOverlay::collectiveName(CollectiveKind::AllToAll)};
    for (std::size_t component = 0; component < 5; ++component) {
        auto* set = new QBarSet(names[component], series);
        set->setColor(kComponentColors[component]);
        set->setBorderColor(kComponentColors[component]);
        bool any = false;
        for (const TimeBreakdown& row : rows) {
            const double seconds = component == 0 ? row.computeSeconds : row.byCollective[component - 1];
            *set << seconds * 1e3;
            any = any || seconds > 0;
        }
        if (any)
            series->append(set);
        else
            delete set;
    }
    series->setBarWidth(0.7);
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis(chart);
    axisY->append(categories);
    auto* axisX = new QValueAxis(chart);
    axisX->setTitleText(tr("Time per device and step (ms)"));
    axisX->setLabelFormat(QStringLiteral("%.0f"));
    axisX->setMin(0);
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    axisX->applyNiceNumbers();
    chart->setTitle(tr("Step time %L1 ms: compute %L2 ms, communication %L3 ms")
                        .arg(total.stepSeconds() * 1e3, 0, 'f', 1)
                        .arg(total.computeSeconds * 1e3, 0, 'f', 1)
                        .arg(total.communicationSeconds() * 1e3, 0, 'f', 1));
}

void BreakdownCharts::showMemory(const PlanCandidate& candidate)
{
    QChart* chart = memory_->chart();
    const MemoryBreakdown& memory = candidate.evaluation.total.memory;
    const double values[] = {memory.parameters, memory.gradients, memory.optimizerStates, memory.activations,
                             memory.transient};
    const QString names[] = {tr("Parameters"), tr("Gradients"), tr("Optimizer states"), tr("Activations"),
                             tr("Largest transient buffer")};
    auto* series = new QHorizontalStackedBarSeries(chart);
    for (std::size_t i = 0; i < 5; ++i) {
        auto* set = new QBarSet(names[i], series);
        set->setColor(kMemoryColors[i]);
        set->setBorderColor(kMemoryColors[i]);
        *set << values[i] / 1e9;
        series->append(set);
    }
    series->setBarWidth(0.6);
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis(chart);
    axisY->append(tr("Per device"));
    axisY->setVisible(false);  // one bar: the title says what it is
    auto* axisX = new QValueAxis(chart);
    axisX->setTitleText(tr("Memory (GB)"));
    axisX->setLabelFormat(QStringLiteral("%.0f"));
    axisX->setRange(0, std::max(memory.total(), candidate.evaluation.hbmBytes) / 1e9 * 1.05);
    axisX->applyNiceNumbers();
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);

    // The capacity as a vertical line across the bar: a line series on the same value
    // axis and a hidden axis spanning the one category.
    auto* capacity = new QLineSeries(chart);
    capacity->setName(tr("HBM %L1 GB").arg(candidate.evaluation.hbmBytes / 1e9, 0, 'f', 0));
    capacity->append(candidate.evaluation.hbmBytes / 1e9, -0.5);
    capacity->append(candidate.evaluation.hbmBytes / 1e9, 0.5);
    capacity->setPen(QPen(QColor(0xc6, 0x28, 0x28), 2, Qt::DashLine));
    chart->addSeries(capacity);
    auto* span = new QValueAxis(chart);
    span->setRange(-0.5, 0.5);
    span->setVisible(false);
    chart->addAxis(span, Qt::AlignRight);
    capacity->attachAxis(axisX);
    capacity->attachAxis(span);
    chart->setTitle(tr("Peak memory %L1 GB of %L2 GB per device")
                        .arg(memory.total() / 1e9, 0, 'f', 1)
                        .arg(candidate.evaluation.hbmBytes / 1e9, 0, 'f', 0));
}

}  // namespace tapestry
