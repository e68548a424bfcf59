#include "charts/BreakdownCharts.h"

#include "charts/ChartViews.h"
#include "cost/Overlap.h"
#include "fold/FoldedModel.h"
#include "search/SearchOutcome.h"

#include <QBarCategoryAxis>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace tapestry {

namespace {

// The parts of a step, in the order they stack; together they make the step time.
enum StepPart { ComputePart, RecomputePart, OptimizerPart, OtherCommunicationPart, ExposedDataParallelPart,
                PipelineSendPart, BubblePart, StepPartCount };

const QColor kStepPartColors[] = {
    {0x4c, 0xaf, 0x50},  // compute
    {0xaf, 0xd5, 0x6b},  // recomputation
    {0x00, 0x79, 0x6b},  // optimizer update
    {0x1e, 0x88, 0xe5},  // communication outside data parallelism, always exposed
    {0xfb, 0x8c, 0x00},  // data-parallel communication not hidden under compute
    {0x37, 0x47, 0x4f},  // pipeline sends between stages
    {0xcf, 0xd8, 0xdc},  // pipeline bubble: the stage waits
};
const QColor kHiddenColor{0x5d, 0x40, 0x37};

double stepPartSeconds(const TimeBreakdown& time, StepPart part)
{
    double seconds = 0;
    switch (part) {
    case ComputePart: seconds = time.computeSeconds - time.recomputeSeconds - time.optimizerSeconds; break;
    case RecomputePart: seconds = time.recomputeSeconds; break;
    case OptimizerPart: seconds = time.optimizerSeconds; break;
    case OtherCommunicationPart: seconds = time.communicationSeconds() - time.dataParallelSeconds; break;
    case ExposedDataParallelPart: seconds = time.dataParallelSeconds - time.hiddenSeconds; break;
    case PipelineSendPart: seconds = time.pipelineSendSeconds; break;
    case BubblePart: seconds = time.bubbleSeconds; break;
    case StepPartCount: break;
    }
    // A difference of equal sums (all communication data-parallel) leaves a rounding residue:
    // below a nanosecond a part is none, so no bar stacks below zero and pulls the axis
    // negative, and no empty part enters the legend.
    return seconds < 1e-9 ? 0.0 : seconds;
}

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
    // A pipeline's seven parts do not fit side by side under a chart beside the cost
    // table: the chart's legend cut them to "Comp…", "Optim…"; this one wraps.
    time_->chart()->legend()->hide();
    timeLegend_ = new QLabel(this);
    timeLegend_->setObjectName(QStringLiteral("timeBreakdownLegend"));
    timeLegend_->setWordWrap(true);
    timeLegend_->setTextFormat(Qt::RichText);
    timeParts_ = new QLabel(this);
    timeParts_->setObjectName(QStringLiteral("timeBreakdownParts"));
    timeParts_->setWordWrap(true);
    // Below these heights Qt Charts drops the axis titles and cuts the labels to "…".
    time_->setMinimumHeight(230);
    memory_->setMinimumHeight(170);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(timeLegend_);  // above: seen without scrolling
    layout->addWidget(time_, 1);
    layout->addWidget(timeParts_);
    layout->addWidget(memory_, 1);
}

void BreakdownCharts::setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate)
{
    clearChart(time_->chart());
    clearChart(memory_->chart());
    time_->chart()->setTitle({});
    timeLegend_->clear();
    timeParts_->clear();
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
    // instances), then what lies outside the blocks. A pipeline's blocks run on
    // different stages' devices, so there the rows are its stages (the whole step is
    // the slowest one's).
    QStringList categories;
    std::vector<TimeBreakdown> rows;
    const TimeBreakdown& total = candidate.evaluation.total.time;
    categories << tr("Whole step");
    rows.push_back(total);
    const std::vector<StageCost>& stages = candidate.evaluation.stages;
    for (std::size_t s = 0; s < stages.size(); ++s) {
        categories << tr("Stage %1").arg(s + 1);
        rows.push_back(stages[s].cost.time);
    }
    if (stages.empty()) {
        TimeBreakdown outside;
        for (const CoarseNodeId node : folded.families.unfoldedNodes)
            outside.add(candidate.breakdowns().perNode.at(node.index()).time);
        for (const Family& family : folded.families.families) {
            if (family.parent.isValid())
                continue;
            // The block's own name ("layers.#"), not its path: a long label is cut to "…".
            const QString name = QString::fromStdString(family.name).section(u'/', -1);
            categories << tr("%1 ×%2").arg(name).arg(family.multiplicity());
            rows.push_back(candidate.breakdowns().perFamily.at(family.id.index()).time);
        }
        categories << tr("Outside blocks");
        rows.push_back(outside);
    }
    // A row per stage needs the height of a label each, or Qt Charts cuts them all to
    // "…" (16 stages); the charts scroll.
    time_->setMinimumHeight(std::max(230, 120 + 18 * static_cast<int>(categories.size())));
    // A horizontal bar chart draws its first category at the bottom: reverse.
    std::reverse(categories.begin(), categories.end());
    std::reverse(rows.begin(), rows.end());

    auto* series = new QHorizontalStackedBarSeries(chart);
    const QString names[] = {tr("Compute"),    tr("Recomputation"),  tr("Optimizer"), tr("Other communication"),
                             tr("DP exposed"), tr("Pipeline sends"), tr("Bubble")};
    for (int part = 0; part < StepPartCount; ++part) {
        auto* set = new QBarSet(names[part], series);
        set->setColor(kStepPartColors[part]);
        set->setBorderColor(kStepPartColors[part]);
        bool any = false;
        for (const TimeBreakdown& row : rows) {
            const double seconds = stepPartSeconds(row, static_cast<StepPart>(part));
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
    // Hidden communication runs while the device computes: a thin bar of its own beside
    // the step's bar (a second bar series), not stacked onto it.
    QHorizontalBarSeries* hidden = nullptr;
    if (total.hiddenSeconds > 0) {
        hidden = new QHorizontalBarSeries(chart);
        auto* set = new QBarSet(tr("DP hidden"), hidden);
        set->setColor(kHiddenColor);
        set->setBorderColor(kHiddenColor);
        for (const TimeBreakdown& row : rows)
            *set << row.hiddenSeconds * 1e3;
        hidden->append(set);
        hidden->setBarWidth(0.2);
        chart->addSeries(hidden);
    }
    QStringList legend;
    for (QAbstractSeries* drawn : chart->series()) {
        for (QBarSet* set : static_cast<QAbstractBarSeries*>(drawn)->barSets())
            legend << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                          .arg(set->color().name(), set->label().toHtmlEscaped().replace(u' ', QStringLiteral("&nbsp;")));
    }
    timeLegend_->setText(legend.join(QStringLiteral(" &nbsp; ")));
    auto* axisY = new QBarCategoryAxis(chart);
    axisY->append(categories);
    // Short names ("Stage 16", "layers.# ×32"): the bars give way, not the names.
    axisY->setTruncateLabels(false);
    auto* axisX = new QValueAxis(chart);
    axisX->setTitleText(tr("Time per device and step (ms)"));
    axisX->setLabelFormat(QStringLiteral("%.0f"));
    axisX->setMin(0);
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    if (hidden) {
        hidden->attachAxis(axisY);
        hidden->attachAxis(axisX);
    }
    axisX->applyNiceNumbers();
    chart->setTitle(tr("Step time %L1 ms per device").arg(total.stepSeconds() * 1e3, 0, 'f', 1));
    timeParts_->setText(tr("Compute %L1 ms (recomputation %L2 ms, optimizer %L3 ms) and exposed communication "
                           "%L4 ms make the step; %L5 ms of data-parallel (DP) communication run hidden under "
                           "compute.")
                            .arg(total.computeSeconds * 1e3, 0, 'f', 1)
                            .arg(total.recomputeSeconds * 1e3, 0, 'f', 1)
                            .arg(total.optimizerSeconds * 1e3, 0, 'f', 1)
                            .arg(total.exposedCommunicationSeconds() * 1e3, 0, 'f', 1)
                            .arg(total.hiddenSeconds * 1e3, 0, 'f', 1));
    if (total.hiddenSeconds > 0) {
        timeParts_->setText(timeParts_->text() + u' ' +
                            tr("Compute beside hidden communication runs %L1 % slower (the communication's "
                               "kernels hold SMs and memory bandwidth): the exposed parts include that slowdown.")
                                .arg(kComputeSlowdownBesideCommunication * 100, 0, 'f', 1));
    }
    if (!stages.empty()) {
        timeParts_->setText(timeParts_->text() + u' ' +
                            tr("The slowest of the %n pipeline stage(s) sets the step: it also sends %L1 ms between "
                               "stages and waits %L2 ms in the bubble.",
                               nullptr, static_cast<int>(stages.size()))
                                .arg(total.pipelineSendSeconds * 1e3, 0, 'f', 1)
                                .arg(total.bubbleSeconds * 1e3, 0, 'f', 1));
    }
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
