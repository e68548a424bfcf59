#include "search/ParetoChartView.h"

#include "charts/ChartViews.h"

#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

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
    setMinimumHeight(160);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeLabels(); });
}

void ParetoChartView::setResults(std::shared_ptr<const SearchOutcome> results)
{
    results_ = std::move(results);
    QChart* c = chart();
    clearChart(c);
    for (QGraphicsSimpleTextItem* label : labels_)
        delete label;
    labels_.clear();
    if (!results_ || results_->candidates.empty())
        return;

    double maxMemory = std::max(results_->memoryLimitBytes, results_->hbmBytes) / 1e9;
    double maxTime = 0;
    for (const auto& candidate : results_->candidates) {
        maxMemory = std::max(maxMemory, candidate->memoryBytes() / 1e9);
        maxTime = std::max(maxTime, candidate->stepSeconds() * 1e3);
    }
    auto* x = new QValueAxis(c);
    x->setTitleText(tr("Peak memory per device (GB)"));
    x->setRange(0, niceCeiling(maxMemory * 1.08));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickCount(6);
    auto* y = new QValueAxis(c);
    y->setTitleText(tr("Step time (ms)"));
    y->setRange(0, niceCeiling(maxTime * 1.1));
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

    for (const PlanCandidate::Role role : {PlanCandidate::Role::Best, PlanCandidate::Role::Alternative,
                                           PlanCandidate::Role::BestSoFar, PlanCandidate::Role::Expert}) {
        auto* series = new QScatterSeries(c);
        series->setMarkerSize(role == PlanCandidate::Role::Expert ? 10 : 13);
        series->setMarkerShape(role == PlanCandidate::Role::Expert ? QScatterSeries::MarkerShapeRectangle
                                                                   : QScatterSeries::MarkerShapeCircle);
        series->setColor(roleColor(role));
        series->setBorderColor(roleColor(role).darker(130));
        for (const auto& candidate : results_->candidates) {
            if (candidate->role == role) {
                series->append(candidate->memoryBytes() / 1e9, candidate->stepSeconds() * 1e3);
                series->setName(SearchResultsModel::roleLabel(*candidate));
            }
        }
        if (series->count() == 0) {
            delete series;
            continue;
        }
        c->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        connect(series, &QScatterSeries::clicked, this, &ParetoChartView::onPointClicked);
    }

    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    for (const auto& candidate : results_->candidates) {
        auto* label = new QGraphicsSimpleTextItem(SearchResultsModel::planLabel(*candidate), c);
        label->setFont(font);
        label->setBrush(roleColor(candidate->role).darker(150));
        label->setZValue(10);
        labels_.push_back(label);
    }
    placeLabels();
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
        const QPointF at = chart()->mapToPosition(QPointF(candidate->memoryBytes() / 1e9, candidate->stepSeconds() * 1e3));
        placed.emplace_back(at - QPointF(7, 7), QSizeF(14, 14));
    }
    for (std::size_t i = 0; i < labels_.size(); ++i) {
        const PlanCandidate& candidate = *results_->candidates[i];
        const QPointF at = chart()->mapToPosition(QPointF(candidate.memoryBytes() / 1e9, candidate.stepSeconds() * 1e3));
        const QSizeF size = labels_[i]->boundingRect().size();
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
        labels_[i]->setPos(rect.topLeft());
    }
}

QPoint ParetoChartView::pointPosition(const PlanCandidate& candidate) const
{
    const QPointF scene =
        chart()->mapToPosition(QPointF(candidate.memoryBytes() / 1e9, candidate.stepSeconds() * 1e3));
    return mapFromScene(chart()->mapToScene(scene));
}

void ParetoChartView::onPointClicked(const QPointF& point)
{
    if (!results_)
        return;
    // The nearest candidate on screen: several roles may share a point (a searched plan
    // equal to Megatron's), and the axes have different units.
    const QPointF clicked = chart()->mapToPosition(point);
    std::shared_ptr<const PlanCandidate> nearest;
    double nearestDistance = 0;
    for (const auto& candidate : results_->candidates) {
        const QPointF at =
            chart()->mapToPosition(QPointF(candidate->memoryBytes() / 1e9, candidate->stepSeconds() * 1e3));
        const double distance = QLineF(at, clicked).length();
        if (!nearest || distance < nearestDistance) {
            nearest = candidate;
            nearestDistance = distance;
        }
    }
    if (nearest)
        emit candidateClicked(nearest);
}

}  // namespace tapestry
