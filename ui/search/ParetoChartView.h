#pragma once

#include <QChartView>

#include <memory>
#include <vector>

class QScatterSeries;

namespace tapestry {

struct PlanCandidate;
struct SearchOutcome;

// Step time against peak memory per device for every candidate of a search, one series
// per role (searched, Pareto or dominated alternative, best so far, expert reference),
// and the memory limit (and the HBM capacity, when the limit is lower) as vertical lines.
// Only the plans on the Pareto frontier are labelled, so that a search over many meshes
// stays readable; hovering a point names its plan. Clicking a point opens that candidate.
class ParetoChartView : public QChartView {
    Q_OBJECT

public:
    explicit ParetoChartView(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const SearchOutcome> results);
    // Where a candidate's point is drawn, in viewport coordinates (for tests).
    [[nodiscard]] QPoint pointPosition(const PlanCandidate& candidate) const;
    // The labels on the chart, with the candidate each names (for tests).
    struct Label {
        std::shared_ptr<const PlanCandidate> candidate;
        QGraphicsSimpleTextItem* item = nullptr;
    };
    [[nodiscard]] const std::vector<Label>& labels() const { return labels_; }

signals:
    void candidateClicked(std::shared_ptr<const tapestry::PlanCandidate> candidate);

protected:
    // A short chart (the docks under a laptop's graph) drops its legend: the plot keeps
    // the height, and hovering a point still names it.
    void resizeEvent(QResizeEvent* event) override;

private:
    // The candidate drawn nearest to `point` (in chart values); null without results.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> nearestCandidate(const QPointF& point) const;
    void onPointClicked(const QPointF& point);
    void onPointHovered(const QPointF& point, bool entered);
    void placeLabels();
    // Where a plan is drawn: its memory and step time, the time held at the axis's top
    // for the outliers beyond it.
    [[nodiscard]] QPointF plotted(const PlanCandidate& candidate) const;

    std::shared_ptr<const SearchOutcome> results_;
    double timeCapMs_ = 0;
    std::vector<Label> labels_;
};

}  // namespace tapestry
