#include "search/ParetoChartView.h"

#include "charts/ChartViews.h"

#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QScatterSeries>
#include <QCursor>
#include <QToolTip>
#include <QResizeEvent>
#include <QValueAxis>

#include <algorithm>
#include <limits>
#include <vector>

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

QColor roleColor(PlanCandidate::Role role)
{
    switch (role) {
    case PlanCandidate::Role::Best: return {0x1a, 0x73, 0xe8};
    case PlanCandidate::Role::Alternative: return {0x5e, 0x97, 0xf6};
    case PlanCandidate::Role::BestSoFar: return {0xf2, 0x9d, 0x0c};
    case PlanCandidate::Role::Expert: return {0x75, 0x75, 0x75};
    case PlanCandidate::Role::Opened: return {0xe6, 0x51, 0x00};
    }
    return Qt::black;
}

// A round upper bound for an axis: 1, 2 or 5 times a power of ten.
double niceCeiling(double value)
{
    if (value <= 0)
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (const double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (step * power >= value)
            return step * power;
    }
    return 10 * power;
}

}  // namespace

ParetoChartView::ParetoChartView(QWidget* parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("paretoChart"));
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setMinimumHeight(130);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeLabels(); });
}

void ParetoChartView::setResults(std::shared_ptr<const SearchOutcome> results)
{
    results_ = std::move(results);
    QChart* c = chart();
    clearChart(c);
    for (const Label& label : labels_)
        delete label.item;
    labels_.clear();
    if (!results_ || results_->candidates.empty())
        return;

    double maxMemory = std::max(results_->memoryLimitBytes, results_->hbmBytes) / 1e9;
    std::vector<double> times;
    for (const auto& candidate : results_->candidates) {
        maxMemory = std::max(maxMemory, candidate->memoryBytes() / 1e9);
        times.push_back(candidate->stepSeconds() * 1e3);
    }
    // One plan a thousand times slower than the rest would flatten them all against the
    // axis: beyond five times the median the axis stops and those plans sit on its edge.
    std::sort(times.begin(), times.end());
    const double cap = 5 * times[times.size() / 2];
    const auto outliers = std::count_if(times.begin(), times.end(), [cap](double t) { return t > cap; });
    double maxTime = 0;
    for (const double t : times)
        maxTime = t <= cap ? std::max(maxTime, t) : maxTime;
    auto* x = new QValueAxis(c);
    x->setTitleText(tr("Peak memory per device (GB)"));
    x->setRange(0, niceCeiling(maxMemory * 1.08));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickCount(6);
    auto* y = new QValueAxis(c);
    y->setRange(0, niceCeiling(maxTime * 1.1));
    timeCapMs_ = outliers > 0 ? y->max() : std::numeric_limits<double>::infinity();
    y->setTitleText(outliers > 0 ? tr("Step time (ms; %n slower plan(s) on the top edge)", nullptr, static_cast<int>(outliers))
                                 : tr("Step time (ms)"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);

    auto* limit = new QLineSeries(c);
    limit->setName(tr("Memory limit (%L1 GB)").arg(results_->memoryLimitBytes / 1e9, 0, 'f', 0));
    limit->append(results_->memoryLimitBytes / 1e9, 0);
    limit->append(results_->memoryLimitBytes / 1e9, y->max());
    limit->setPen(QPen(QColor(0xc6, 0x28, 0x28), 2, Qt::DashLine));
    c->addSeries(limit);
    limit->attachAxis(x);
    limit->attachAxis(y);
    if (std::abs(results_->hbmBytes - results_->memoryLimitBytes) > 1e6) {
        // A lowered limit: the capacity itself stays in view as a fainter line.
        auto* hbm = new QLineSeries(c);
        hbm->setName(tr("HBM (%L1 GB)").arg(results_->hbmBytes / 1e9, 0, 'f', 0));
        hbm->append(results_->hbmBytes / 1e9, 0);
        hbm->append(results_->hbmBytes / 1e9, y->max());
        hbm->setPen(QPen(QColor(0x9e, 0x9e, 0x9e), 2, Qt::DotLine));
        c->addSeries(hbm);
        hbm->attachAxis(x);
        hbm->attachAxis(y);
    }

    // An alternative another plan beats on both time and memory is no alternative: it
    // gets a grey series of its own.
    const auto dominated = [this](const PlanCandidate& candidate) {
        return candidate.role == PlanCandidate::Role::Alternative && SearchResultsModel::dominatorOf(candidate, *results_);
    };
    struct Group {
        PlanCandidate::Role role;
        bool dominated;
        QColor color;
    };
    const QColor grey(0xbd, 0xbd, 0xbd);
    for (const Group& group : {Group{PlanCandidate::Role::Best, false, roleColor(PlanCandidate::Role::Best)},
                               Group{PlanCandidate::Role::Alternative, false, roleColor(PlanCandidate::Role::Alternative)},
                               Group{PlanCandidate::Role::Alternative, true, grey},
                               Group{PlanCandidate::Role::BestSoFar, false, roleColor(PlanCandidate::Role::BestSoFar)},
                               Group{PlanCandidate::Role::Expert, false, roleColor(PlanCandidate::Role::Expert)}}) {
        auto* series = new QScatterSeries(c);
        const bool expert = group.role == PlanCandidate::Role::Expert;
        series->setMarkerSize(expert || group.dominated ? 10 : 13);
        series->setMarkerShape(expert ? QScatterSeries::MarkerShapeRectangle : QScatterSeries::MarkerShapeCircle);
        series->setColor(group.color);
        series->setBorderColor(group.color.darker(130));
        const PlanCandidate* member = nullptr;
        for (const auto& candidate : results_->candidates) {
            if (candidate->role == group.role && dominated(*candidate) == group.dominated) {
                series->append(plotted(*candidate));
                member = candidate.get();
            }
        }
        if (!member) {
            delete series;
            continue;
        }
        series->setName(group.dominated ? tr("Searched: dominated") : SearchResultsModel::roleLabel(*member));
        c->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        connect(series, &QScatterSeries::clicked, this, &ParetoChartView::onPointClicked);
        connect(series, &QScatterSeries::hovered, this, &ParetoChartView::onPointHovered);
    }

    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    for (const auto& candidate : results_->candidates) {
        if (SearchResultsModel::dominatorOf(*candidate, *results_))
            continue;  // off the frontier: named on hover
        auto* label = new QGraphicsSimpleTextItem(SearchResultsModel::planLabel(*candidate), c);
        label->setFont(font);
        label->setBrush(roleColor(candidate->role).darker(150));
        label->setZValue(10);
        labels_.push_back({candidate, label});
    }
    placeLabels();
}

void ParetoChartView::resizeEvent(QResizeEvent* event)
{
    constexpr int kLegendAbove = 240;  // px: below, the legend would take half the plot
    chart()->legend()->setVisible(height() >= kLegendAbove);
    QChartView::resizeEvent(event);
}

QPointF ParetoChartView::plotted(const PlanCandidate& candidate) const
{
    return {candidate.memoryBytes() / 1e9, std::min(candidate.stepSeconds() * 1e3, timeCapMs_)};
}

void ParetoChartView::placeLabels()
{
    if (!results_)
        return;
    // Right of the point, else left of it; moved down (then up) past markers and labels
    // already placed, so that plans with nearly equal cost stay readable.
    const QRectF plot = chart()->plotArea();
    std::vector<QRectF> placed;
    for (const auto& candidate : results_->candidates) {  // labels keep off every marker
        const QPointF at = chart()->mapToPosition(plotted(*candidate));
        placed.emplace_back(at - QPointF(7, 7), QSizeF(14, 14));
    }
    for (const Label& label : labels_) {
        const PlanCandidate& candidate = *label.candidate;
        const QPointF at = chart()->mapToPosition(plotted(candidate));
        const QSizeF size = label.item->boundingRect().size();
        const double x = at.x() + 9 + size.width() <= plot.right() ? at.x() + 9 : at.x() - 9 - size.width();
        QRectF rect(QPointF(x, at.y() - size.height() / 2), size);
        for (int step = 0; step < 12; ++step) {
            const double offset = (step % 2 == 0 ? 1 : -1) * ((step + 1) / 2) * size.height();
            const QRectF trial = rect.translated(0, offset);
            const bool free = std::none_of(placed.begin(), placed.end(), [&](const QRectF& r) { return r.intersects(trial); });
            if (free) {
                rect = trial;
                break;
            }
        }
        placed.push_back(rect);
        label.item->setPos(rect.topLeft());
    }
}

QPoint ParetoChartView::pointPosition(const PlanCandidate& candidate) const
{
    const QPointF scene = chart()->mapToPosition(plotted(candidate));
    return mapFromScene(chart()->mapToScene(scene));
}

std::shared_ptr<const PlanCandidate> ParetoChartView::nearestCandidate(const QPointF& point) const
{
    if (!results_)
        return nullptr;
    // The nearest candidate on screen: several roles may share a point (a searched plan
    // equal to Megatron's), and the axes have different units.
    const QPointF at = chart()->mapToPosition(point);
    std::shared_ptr<const PlanCandidate> nearest;
    double nearestDistance = 0;
    for (const auto& candidate : results_->candidates) {
        const QPointF drawn = chart()->mapToPosition(plotted(*candidate));
        const double distance = QLineF(drawn, at).length();
        if (!nearest || distance < nearestDistance) {
            nearest = candidate;
            nearestDistance = distance;
        }
    }
    return nearest;
}

void ParetoChartView::onPointClicked(const QPointF& point)
{
    if (std::shared_ptr<const PlanCandidate> nearest = nearestCandidate(point))
        emit candidateClicked(nearest);
}

void ParetoChartView::onPointHovered(const QPointF& point, bool entered)
{
    const std::shared_ptr<const PlanCandidate> nearest = entered ? nearestCandidate(point) : nullptr;
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(QCursor::pos(),
                       tr("%1 (%2) on %3: %L4 ms, %L5 GB")
                           .arg(SearchResultsModel::planLabel(*nearest), SearchResultsModel::roleLabel(*nearest, results_.get()),
                                QString::fromStdString(nearest->meshText))
                           .arg(nearest->stepSeconds() * 1e3, 0, 'f', 1)
                           .arg(nearest->memoryBytes() / 1e9, 0, 'f', 1),
                       this);
}

}  // namespace tapestry
