#include "charts/PipelineTimeline.h"

#include "graphview/GraphLegend.h"
#include "graphview/GraphViewPicture.h"
#include "search/PlanCandidate.h"

#include <QDir>
#include <QFileDialog>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QScrollBar>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

constexpr double kLabelWidth = 150;  // the stage names left of the rows
constexpr double kAxisHeight = 26;
constexpr double kRowHeight = 24;
constexpr double kRowGap = 5;
constexpr double kSendHeight = 4;  // the send marks along a row's bottom edge
constexpr double kGapPixels = 84;  // a cut-out steady state
constexpr double kMaxPixelsPerBox = 4000;

const QColor kChunkColors[] = {{0x1e, 0x88, 0xe5}, {0x43, 0xa0, 0x47}, {0x8e, 0x24, 0xaa}, {0xf4, 0x51, 0x1e},
                               {0x00, 0xac, 0xc1}, {0xc0, 0xca, 0x33}, {0xd8, 0x1b, 0x60}, {0x6d, 0x4c, 0x41}};
const QColor kSendColor{0x37, 0x47, 0x4f};       // as "Pipeline sends" there
const QColor kSyncColor{0xfb, 0x8c, 0x00};       // as "DP exposed" in the step breakdown
const QColor kOptimizerColor{0x00, 0x79, 0x6b};  // as "Optimizer" there
const QColor kIdleColor{0xcf, 0xd8, 0xdc};  // as "Bubble" in the step breakdown
const QColor kModelStepColor{0xc6, 0x28, 0x28};

QColor chunkColor(int chunk, bool backward)
{
    const QColor base = kChunkColors[chunk % std::size(kChunkColors)];
    return backward ? base : base.lighter(155);
}

QColor boxColor(const TimelineBox& box)
{
    switch (box.kind) {
    case TimelineBox::Kind::Forward: return chunkColor(box.virtualChunk, false);
    case TimelineBox::Kind::Backward: return chunkColor(box.virtualChunk, true);
    case TimelineBox::Kind::Send: return kSendColor;
    case TimelineBox::Kind::GradientSync: return kSyncColor;
    case TimelineBox::Kind::Optimizer: return kOptimizerColor;
    }
    return Qt::gray;
}

// "blocks 0–11" or, for several chunks, "blocks 0–2, 24–26, …" (1-based like the rows).
QString blocksText(const std::vector<std::pair<std::size_t, std::size_t>>& ranges)
{
    QStringList parts;
    for (const auto& [first, end] : ranges)
        parts << (end - first == 1 ? QString::number(first) : QStringLiteral("%1–%2").arg(first).arg(end - 1));
    if (parts.size() > 3)
        parts = parts.mid(0, 2) << QStringLiteral("…");
    return PipelineTimeline::tr("blocks %1").arg(parts.join(QStringLiteral(", ")));
}

// The times, merged, when some stage works on one of the first or last `keep`
// micro-batches or on its once-per-step part; what lies between them (longer than
// `minimum`) is the steady state that may be cut out.
std::vector<std::pair<double, double>> steadyGaps(const ScheduleTimeline& timeline, int keep, double minimum)
{
    std::vector<std::pair<double, double>> kept;
    for (const TimelineBox& box : timeline.boxes) {
        if (box.microBatch < keep || box.microBatch >= timeline.microBatches - keep)
            kept.emplace_back(box.start, box.end);
    }
    std::sort(kept.begin(), kept.end());
    std::vector<std::pair<double, double>> gaps;
    double reached = 0;
    for (const auto& [start, end] : kept) {
        if (start - reached > minimum)
            gaps.emplace_back(reached, start);
        reached = std::max(reached, end);
    }
    return gaps;
}

double niceStep(double raw)
{
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * power >= raw)
            return factor * power;
    }
    return 10 * power;
}

}  // namespace

PipelineTimeline::PipelineTimeline(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelineTimeline"));
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("timelineTitle"));
    title_->setWordWrap(true);
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* zoomOut = new QToolButton(this);
    zoomOut->setText(QStringLiteral("−"));
    zoomOut->setToolTip(tr("Zoom out (wheel down)"));
    auto* zoomIn = new QToolButton(this);
    zoomIn->setText(QStringLiteral("+"));
    zoomIn->setToolTip(tr("Zoom in (wheel up)"));
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Fit the whole step to the view's width"));
    save_ = new QToolButton(this);
    save_->setObjectName(QStringLiteral("timelineSave"));
    save_->setText(tr("Save…"));
    save_->setToolTip(tr("Save the timeline as SVG or PNG"));

    scene_ = new QGraphicsScene(this);
    view_ = new QGraphicsView(scene_, this);
    view_->setObjectName(QStringLiteral("timelineView"));
    view_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setDragMode(QGraphicsView::ScrollHandDrag);
    view_->viewport()->installEventFilter(this);
    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("timelineCaption"));
    caption_->setWordWrap(true);
    legend_ = new GraphLegend(this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(title_, 1);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(fit);
    bar->addWidget(save_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);
    layout->addWidget(legend_);
    layout->addWidget(caption_);

    connect(zoomIn, &QToolButton::clicked, this, [this] { zoomBy(1.25); });
    connect(zoomOut, &QToolButton::clicked, this, [this] { zoomBy(0.8); });
    connect(fit, &QToolButton::clicked, this, &PipelineTimeline::fitToWidth);
    connect(save_, &QToolButton::clicked, this, &PipelineTimeline::saveAs);
    setPlan(nullptr);
}

void PipelineTimeline::setPlan(std::shared_ptr<const PlanCandidate> candidate)
{
    candidate_ = std::move(candidate);
    shown_ = candidate_ && candidate_->plan.pipeline.active() && !candidate_->evaluation.stages.empty();
    gaps_.clear();
    timeline_ = shown_ ? scheduleTimeline(candidate_->plan.pipeline, candidate_->evaluation) : ScheduleTimeline{};
    save_->setEnabled(shown_);
    if (!shown_) {
        title_->setText(tr("This plan has no pipeline: open a plan on a mesh with a pp axis to see its schedule."));
        caption_->clear();
        legend_->setEntries({});
        scene_->clear();
        return;
    }
    const PipelineLayout& layout = timeline_.layout;
    const int p = layout.stages;
    double slowestMicroBatch = 0;
    for (const StageCost& stage : candidate_->evaluation.stages)
        slowestMicroBatch = std::max(slowestMicroBatch, stage.microBatchSeconds);
    gaps_ = steadyGaps(timeline_, std::max(2, p), 3 * slowestMicroBatch);

    const QString schedule = layout.schedule == PipelineSchedule::GPipe      ? tr("GPipe")
                             : layout.schedule == PipelineSchedule::OneFOneB ? tr("1F1B")
                                                                             : tr("Interleaved 1F1B");
    QString title = layout.virtualStages > 1
                        ? tr("<b>%1</b>: %2 stages × %3 chunks, %Ln micro-batch(es) per step", nullptr, timeline_.microBatches)
                              .arg(schedule)
                              .arg(p)
                              .arg(layout.virtualStages)
                        : tr("<b>%1</b>: %2 stages, %Ln micro-batch(es) per step", nullptr, timeline_.microBatches)
                              .arg(schedule)
                              .arg(p);
    if (!timeline_.complete)
        title += tr(" — the schedule could not be laid out completely");
    title_->setText(title);

    const StageCost& first = candidate_->evaluation.stages.front();
    const double firstStep = first.cost.time.stepSeconds();
    caption_->setText(
        tr("Laid out: step %L1 ms; the cost model's step (dashed line): %L2 ms. Stage 1 idles %L3 ms (%L4 % of its "
           "step) in the bubble. Forward ≈ 1/3 and backward ≈ 2/3 of a micro-batch's work (the cost model keeps no "
           "per-stage forward/backward split; recomputation counts to the backward); a chunk takes its share by "
           "block count.")
            .arg(timeline_.seconds * 1e3, 0, 'f', 1)
            .arg(timeline_.modelSeconds * 1e3, 0, 'f', 1)
            .arg(first.cost.time.bubbleSeconds * 1e3, 0, 'f', 1)
            .arg(firstStep > 0 ? 100 * first.cost.time.bubbleSeconds / firstStep : 0.0, 0, 'f', 1));

    QList<GraphLegend::Entry> entries;
    for (int c = 0; c < layout.virtualStages; ++c) {
        const QString chunk = layout.virtualStages > 1 ? tr(" (chunk %1)").arg(c + 1) : QString();
        entries << GraphLegend::Entry{chunkColor(c, false), tr("Forward%1").arg(chunk), false}
                << GraphLegend::Entry{chunkColor(c, true), tr("Backward%1").arg(chunk), false};
    }
    entries << GraphLegend::Entry{kSendColor, tr("Send to a neighbouring stage"), false}
            << GraphLegend::Entry{kSyncColor, tr("Gradient reduction (exposed)"), false}
            << GraphLegend::Entry{kOptimizerColor, tr("Optimizer"), false}
            << GraphLegend::Entry{kIdleColor, tr("Bubble (idle)"), false}
            << GraphLegend::Entry{kModelStepColor, tr("Cost model's step"), false};
    legend_->setEntries(entries);
    fitted_ = true;
    fitToWidth();
}

double PipelineTimeline::xOf(double seconds) const
{
    double removed = 0;
    int passed = 0;
    for (const auto& [start, end] : gaps_) {
        if (seconds <= start)
            break;
        const double gapX = kLabelWidth + (start - removed) * pixelsPerSecond_ + passed * kGapPixels;
        if (seconds < end)
            return gapX + kGapPixels * (seconds - start) / (end - start);
        removed += end - start;
        ++passed;
    }
    return kLabelWidth + (seconds - removed) * pixelsPerSecond_ + passed * kGapPixels;
}

double PipelineTimeline::secondsAt(double x) const
{
    double removed = 0;
    int passed = 0;
    for (const auto& [start, end] : gaps_) {
        const double gapX = kLabelWidth + (start - removed) * pixelsPerSecond_ + passed * kGapPixels;
        if (x <= gapX)
            break;
        if (x < gapX + kGapPixels)
            return start + (x - gapX) / kGapPixels * (end - start);
        removed += end - start;
        ++passed;
    }
    return (x - kLabelWidth - passed * kGapPixels) / pixelsPerSecond_ + removed;
}

void PipelineTimeline::fitToWidth()
{
    if (!shown_ || timeline_.seconds <= 0)
        return;
    fitted_ = true;
    double hidden = 0;
    for (const auto& [start, end] : gaps_)
        hidden += end - start;
    const double width = std::max(200.0, view_->viewport()->width() - kLabelWidth - 40 -
                                             kGapPixels * static_cast<double>(gaps_.size()));
    pixelsPerSecond_ = width / (timeline_.seconds - hidden);
    rebuild();
}

void PipelineTimeline::zoomBy(double factor)
{
    zoomAround(factor, view_->viewport()->width() / 2);
}

void PipelineTimeline::zoomAround(double factor, int anchor)
{
    if (!shown_)
        return;
    const double anchorX = view_->mapToScene(anchor, 0).x();
    const double anchorSeconds = secondsAt(anchorX);
    double shortest = timeline_.seconds;
    for (const TimelineBox& box : timeline_.boxes) {
        if (box.end > box.start)
            shortest = std::min(shortest, box.end - box.start);
    }
    fitted_ = false;
    pixelsPerSecond_ = std::clamp(pixelsPerSecond_ * factor, 1e-9, kMaxPixelsPerBox / std::max(shortest, 1e-12));
    rebuild();
    QScrollBar* bar = view_->horizontalScrollBar();
    bar->setValue(bar->value() + static_cast<int>(std::lround(xOf(anchorSeconds) - anchorX)));
}

bool PipelineTimeline::eventFilter(QObject* watched, QEvent* event)
{
    // The viewport's own size: a hidden tab's view gets it only when it shows.
    if (watched == view_->viewport() && event->type() == QEvent::Resize && fitted_)
        fitToWidth();
    if (watched == view_->viewport() && event->type() == QEvent::Wheel) {
        const auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->angleDelta().y() != 0) {
            zoomAround(std::pow(1.0015, wheel->angleDelta().y()), static_cast<int>(wheel->position().x()));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PipelineTimeline::rebuild()
{
    scene_->clear();
    if (!shown_)
        return;
    QFont font = view_->font();
    font.setPixelSize(11);
    QFont small = font;
    small.setPixelSize(9);
    const int p = timeline_.layout.stages;
    const double left = xOf(0);
    const double right = xOf(timeline_.seconds);
    const double rowsBottom = kAxisHeight + p * (kRowHeight + kRowGap);
    auto rowTop = [](int stage) { return kAxisHeight + stage * (kRowHeight + kRowGap); };
    const auto inGap = [this](double seconds) {
        return std::any_of(gaps_.begin(), gaps_.end(), [&](const auto& gap) { return seconds > gap.first && seconds < gap.second; });
    };

    // The time axis: round steps about 90 px apart, in ms (s when the steps are whole seconds).
    const double step = niceStep(90 / pixelsPerSecond_);
    const bool wholeSeconds = step >= 1;
    const QPen tickPen(QColor(0xb0, 0xbe, 0xc5), 0);
    for (double t = 0; t <= timeline_.seconds; t += step) {
        if (inGap(t))
            continue;
        const double x = xOf(t);
        scene_->addLine(x, kAxisHeight - 4, x, rowsBottom, tickPen)->setZValue(-2);
        auto* label = scene_->addSimpleText(wholeSeconds ? tr("%L1 s").arg(t, 0, 'f', step >= 10 ? 0 : 1)
                                                         : tr("%L1 ms").arg(t * 1e3, 0, 'f', step * 1e3 >= 1 ? 0 : 2),
                                            small);
        label->setPos(x - label->boundingRect().width() / 2, kAxisHeight - 18);
    }

    for (int s = 0; s < p; ++s) {
        auto* row = scene_->addRect(left, rowTop(s), right - left, kRowHeight, Qt::NoPen, kIdleColor);
        row->setZValue(-1);
        row->setData(KindKey, kRowItem);
        row->setData(StageKey, s);
        row->setToolTip(tr("Stage %1 idles %L2 ms per step (its bubble, as the cost model counts it)")
                            .arg(s + 1)
                            .arg(timeline_.bubbleSeconds[s] * 1e3, 0, 'f', 1));
        auto* name = scene_->addSimpleText(tr("Stage %1").arg(s + 1), font);
        name->setPos(4, rowTop(s) + 1);
        auto* blocks = scene_->addSimpleText(blocksText(timeline_.blockRanges[s]), small);
        blocks->setPos(4, rowTop(s) + 12);
        blocks->setBrush(QColor(0x60, 0x60, 0x60));
    }

    const QPen border(QColor(0x45, 0x5a, 0x64), 0.5);
    for (const TimelineBox& box : timeline_.boxes) {
        // The parts of the box outside the cut-out steady state.
        std::vector<std::pair<double, double>> pieces{{box.start, box.end}};
        for (const auto& [start, end] : gaps_) {
            std::vector<std::pair<double, double>> cut;
            for (const auto& [a, b] : pieces) {
                if (a < start)
                    cut.emplace_back(a, std::min(b, start));
                if (b > end)
                    cut.emplace_back(std::max(a, end), b);
            }
            pieces = std::move(cut);
        }
        const bool send = box.kind == TimelineBox::Kind::Send;
        const double y = send ? rowTop(box.stage) + kRowHeight - kSendHeight : rowTop(box.stage);
        const double height = send ? kSendHeight : kRowHeight - kSendHeight - 1;
        QString tip;
        const double startMs = box.start * 1e3;
        const double endMs = box.end * 1e3;
        switch (box.kind) {
        case TimelineBox::Kind::Forward:
        case TimelineBox::Kind::Backward:
            tip = (box.kind == TimelineBox::Kind::Forward ? tr("Stage %1: forward of micro-batch %2, chunk %3")
                                                          : tr("Stage %1: backward of micro-batch %2, chunk %3"))
                      .arg(box.stage + 1)
                      .arg(box.microBatch + 1)
                      .arg(box.virtualChunk + 1);
            break;
        case TimelineBox::Kind::Send:
            tip = tr("Stage %1 sends micro-batch %2 on").arg(box.stage + 1).arg(box.microBatch + 1);
            break;
        case TimelineBox::Kind::GradientSync: tip = tr("Stage %1: gradient reduction (exposed part)").arg(box.stage + 1); break;
        case TimelineBox::Kind::Optimizer: tip = tr("Stage %1: optimizer update").arg(box.stage + 1); break;
        }
        tip += tr(", %L1 – %L2 ms").arg(startMs, 0, 'f', 2).arg(endMs, 0, 'f', 2);
        for (const auto& [a, b] : pieces) {
            const double x0 = xOf(a);
            const double width = std::max(send ? 0.5 : 1.0, xOf(b) - x0);
            auto* item = scene_->addRect(x0, y, width, height, send ? QPen(Qt::NoPen) : border, boxColor(box));
            item->setData(KindKey, static_cast<int>(box.kind));
            item->setData(StageKey, box.stage);
            item->setData(MicroBatchKey, box.microBatch);
            item->setData(ChunkKey, box.virtualChunk);
            item->setToolTip(tip);
            if (box.microBatch >= 0 && !send) {
                const QString number = QString::number(box.microBatch + 1);
                auto* label = new QGraphicsSimpleTextItem(number, item);
                label->setFont(small);
                const QRectF bounds = label->boundingRect();
                if (bounds.width() + 2 > width) {
                    delete label;
                    continue;
                }
                label->setBrush(box.kind == TimelineBox::Kind::Backward ? Qt::white : Qt::black);
                label->setPos(x0 + (width - bounds.width()) / 2, y + (height - bounds.height()) / 2);
            }
        }
    }

    for (const auto& [start, end] : gaps_) {
        const double x = xOf(start);
        auto* gap = scene_->addRect(x + 2, kAxisHeight - 2, kGapPixels - 4, rowsBottom - kAxisHeight,
                                    QPen(QColor(0x90, 0xa4, 0xae), 1, Qt::DashLine), Qt::white);
        gap->setData(KindKey, kGapItem);
        gap->setToolTip(tr("The steady state in between repeats the same pattern; %L1 ms of it are not drawn.")
                            .arg((end - start) * 1e3, 0, 'f', 1));
        auto* text = new QGraphicsTextItem(gap);
        text->setFont(small);
        text->setTextWidth(kGapPixels - 8);
        text->setHtml(QStringLiteral("<center>%1</center>")
                          .arg(tr("⋯ steady state, %L1 ms not drawn ⋯").arg((end - start) * 1e3, 0, 'f', 0).toHtmlEscaped()));
        text->setPos(x + 4, kAxisHeight + (rowsBottom - kAxisHeight) / 2 - text->boundingRect().height() / 2);
    }

    const double modelX = xOf(timeline_.modelSeconds);
    scene_->addLine(modelX, kAxisHeight - 4, modelX, rowsBottom, QPen(kModelStepColor, 1.5, Qt::DashLine));
    auto* model = scene_->addSimpleText(tr("cost model: %L1 ms").arg(timeline_.modelSeconds * 1e3, 0, 'f', 1), small);
    model->setBrush(kModelStepColor);
    model->setPos(modelX - model->boundingRect().width() - 3, rowsBottom);
    const double width = std::max(right, modelX) + 24;
    scene_->setSceneRect(0, 0, width, rowsBottom + 16);
}

bool PipelineTimeline::savePicture(const QString& file)
{
    return shown_ && saveScenePicture(*scene_, file);
}

void PipelineTimeline::saveAs()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save Timeline"), QDir::homePath(),
                                                      tr("SVG pictures (*.svg);;PNG pictures (*.png)"));
    if (!file.isEmpty() && !savePicture(file))
        QMessageBox::warning(this, tr("Could Not Save Timeline"),
                             tr("Could not write %1.").arg(QDir::toNativeSeparators(file)));
}

}  // namespace tapestry
