#include "sharding/UsageProfileChart.h"

#include "charts/AxisScale.h"
#include "charts/ChartViews.h"
#include "common/QuantityFormat.h"
#include "solver/ShardingSolution.h"
#include "solver/UsageEnvelope.h"

#include <QAreaSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace tapestry {

namespace {

const QColor kUsageColor(0x1e, 0x88, 0xe5);
const QColor kLimitColor(0xc6, 0x28, 0x28);
const QColor kPeakColor(0xfb, 0x8c, 0x00);

// Each column as a flat step from its first time point to past its last.
QLineSeries* steps(const std::vector<UsageColumn>& columns, std::int64_t UsageColumn::*value, double divisor)
{
    auto* line = new QLineSeries;
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(columns.size() * 2));
    for (const UsageColumn& column : columns) {
        points.append(QPointF(static_cast<double>(column.begin), static_cast<double>(column.*value) / divisor));
        points.append(QPointF(static_cast<double>(column.end), static_cast<double>(column.*value) / divisor));
    }
    line->replace(points);
    return line;
}

// An area between step lines. It owns them: QAreaSeries does not, and lines parented
// elsewhere would outlive every rebuild.
QAreaSeries* areaBetween(QLineSeries* upper, QLineSeries* lower = nullptr)
{
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);
    if (lower)
        lower->setParent(area);
    return area;
}

QScatterSeries* marker(const QString& name, const QString& objectName, const QColor& color, double time, double usage,
                       QObject* parent)
{
    auto* series = new QScatterSeries(parent);
    series->setObjectName(objectName);
    series->setName(name);
    series->setMarkerSize(11);
    series->setColor(color);
    series->setBorderColor(color.darker(140));
    series->append(time, usage);
    return series;
}

}  // namespace

UsageProfileChart::UsageProfileChart(QWidget* parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("usageProfileChart"));
    styleChartView(this);
    setMinimumHeight(200);
    // Re-drawing a long profile per pixel of a drag would redo the envelope each time.
    resized_.setSingleShot(true);
    resized_.setInterval(150);
    connect(&resized_, &QTimer::timeout, this, [this] {
        if (solution_ && builtColumns_ < solution_->usage.end && columnCount() != builtColumns_)
            rebuild();
    });
}

void UsageProfileChart::setSolution(std::shared_ptr<const ShardingSolution> solution, std::optional<std::int64_t> limit)
{
    solution_ = std::move(solution);
    limit_ = limit;
    rebuild();
}

int UsageProfileChart::columnCount() const
{
    // About one column per pixel of the plot; the plot area is unknown before the first
    // layout, the view's width is close enough.
    return std::max(100, viewport()->width());
}

void UsageProfileChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    resized_.start();
}

void UsageProfileChart::rebuild()
{
    QChart* c = chart();
    clearChart(c);
    c->setTitle({});
    builtColumns_ = 0;
    if (!solution_ || solution_->usage.end == 0)
        return;
    const UsageProfile& usage = solution_->usage;
    builtColumns_ = columnCount();
    const std::vector<UsageColumn> columns = usageEnvelope(usage, builtColumns_);
    const bool downsampled = static_cast<std::int64_t>(columns.size()) < usage.end;
    const auto timePoints = static_cast<double>(usage.end);
    const std::int64_t peak = solution_->evaluation.peakUsage;
    const std::int64_t peakTime =
        usage.times[static_cast<std::size_t>(std::max_element(usage.usages.begin(), usage.usages.end()) - usage.usages.begin())];

    auto* x = new QValueAxis(c);
    x->setTitleText(tr("Time point"));
    x->setRange(0, timePoints);
    x->setLabelFormat(QStringLiteral("%.0f"));
    setRoundTicks(x);
    // Usages are often bytes, hundreds of millions of them.
    const AxisScale scale = AxisScale::forLargest(static_cast<double>(std::max(peak, limit_.value_or(0))));
    auto* y = new QValueAxis(c);
    y->setTitleText(scale.title(tr("Memory usage")));
    y->setRange(0, static_cast<double>(std::max(peak, limit_.value_or(0))) / scale.divisor * 1.08);
    y->setLabelFormat(QStringLiteral("%.4g"));
    y->applyNiceNumbers();
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    const auto attach = [&](QAbstractSeries* series) {
        c->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };

    auto* usageArea = areaBetween(steps(columns, &UsageColumn::min, scale.divisor));
    usageArea->setObjectName(QStringLiteral("usageSeries"));
    usageArea->setName(tr("Usage"));
    usageArea->setColor(kUsageColor.lighter(150));
    usageArea->setBorderColor(kUsageColor);
    attach(usageArea);
    if (downsampled) {
        auto* range = areaBetween(steps(columns, &UsageColumn::max, scale.divisor),
                                  steps(columns, &UsageColumn::min, scale.divisor));
        range->setObjectName(QStringLiteral("usageRangeSeries"));
        range->setName(tr("Range within %L1 time points").arg(columns.front().end - columns.front().begin));
        range->setColor(kUsageColor.lighter(185));
        range->setBorderColor(kUsageColor.lighter(130));
        attach(range);
    }
    if (limit_) {
        auto* line = new QLineSeries(c);
        line->setObjectName(QStringLiteral("limitSeries"));
        line->setName(tr("Usage limit %1").arg(QuantityFormat::exact(static_cast<std::uint64_t>(*limit_))));
        line->append(0, static_cast<double>(*limit_) / scale.divisor);
        line->append(timePoints, static_cast<double>(*limit_) / scale.divisor);
        line->setPen(QPen(kLimitColor, 2, Qt::DashLine));
        attach(line);
    }
    // Markers sit in the middle of their time point's step.
    attach(marker(tr("Peak %1 at time point %L2").arg(QuantityFormat::exact(static_cast<std::uint64_t>(peak))).arg(peakTime),
                  QStringLiteral("peakSeries"), kPeakColor, static_cast<double>(peakTime) + 0.5,
                  static_cast<double>(peak) / scale.divisor, c));
    if (const std::optional<std::int64_t> overload = solution_->evaluation.firstViolation) {
        attach(marker(tr("First overload at time point %L1").arg(*overload), QStringLiteral("overloadSeries"),
                      kLimitColor, static_cast<double>(*overload) + 0.5,
                      static_cast<double>(solution_->evaluation.violationUsage) / scale.divisor, c));
    }
    c->setTitle(limit_ ? tr("Memory over time: peak %1 of %2")
                             .arg(QuantityFormat::exact(static_cast<std::uint64_t>(peak)),
                                  QuantityFormat::exact(static_cast<std::uint64_t>(*limit_)))
                       : tr("Memory over time: peak %1 (no limit)")
                             .arg(QuantityFormat::exact(static_cast<std::uint64_t>(peak))));
}

}  // namespace tapestry
