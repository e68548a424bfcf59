#pragma once

#include "charts/ScheduleTimeline.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QToolButton;

namespace tapestry {

class GraphLegend;
struct PlanCandidate;

// A pipelined plan's step as a schedule timeline (ScheduleTimeline): one row per stage,
// its forward and backward micro-batch boxes coloured by virtual chunk, the sends as
// thin marks under them, the gaps between boxes the bubble, and the gradient reduction
// and optimizer update at the end; a dashed line marks the cost model's step. With many
// micro-batches the steady state in the middle (times when every stage works on neither
// the first nor the last p micro-batches) is cut out and the cut labelled with the time
// it hides. The wheel and the ± buttons zoom the time axis; saved as SVG or PNG.
class PipelineTimeline : public QWidget {
    Q_OBJECT

public:
    // What each drawn item holds under Qt's item data keys (tests and tooltips read it).
    enum DataKey { KindKey = 0, StageKey = 1, MicroBatchKey = 2, ChunkKey = 3 };
    // KindKey values beyond TimelineBox::Kind.
    static constexpr int kRowItem = 16;
    static constexpr int kGapItem = 17;

    explicit PipelineTimeline(QWidget* parent = nullptr);

    // Null or a plan without a pipeline shows a note instead.
    void setPlan(std::shared_ptr<const PlanCandidate> candidate);
    [[nodiscard]] bool hasPipeline() const { return shown_; }
    [[nodiscard]] const ScheduleTimeline& timeline() const { return timeline_; }
    // The cut-out steady-state intervals, [start, end) in seconds.
    [[nodiscard]] const std::vector<std::pair<double, double>>& gaps() const { return gaps_; }
    [[nodiscard]] QGraphicsScene* scene() const { return scene_; }
    [[nodiscard]] QGraphicsView* view() const { return view_; }
    [[nodiscard]] double pixelsPerSecond() const { return pixelsPerSecond_; }

    void zoomBy(double factor);
    void fitToWidth();
    // SVG or PNG by the file's suffix; false when it cannot be written.
    bool savePicture(const QString& file);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    // Zooms keeping the time under view x `anchor` in place.
    void zoomAround(double factor, int anchor);
    [[nodiscard]] double xOf(double seconds) const;
    [[nodiscard]] double secondsAt(double x) const;
    void saveAs();

    std::shared_ptr<const PlanCandidate> candidate_;
    ScheduleTimeline timeline_;
    std::vector<std::pair<double, double>> gaps_;
    bool shown_ = false;
    bool fitted_ = true;  // follows the view's width until zoomed
    double pixelsPerSecond_ = 1;
    QLabel* title_ = nullptr;
    QGraphicsScene* scene_ = nullptr;
    QGraphicsView* view_ = nullptr;
    QLabel* caption_ = nullptr;
    GraphLegend* legend_ = nullptr;
    QToolButton* save_ = nullptr;
};

}  // namespace tapestry
