#pragma once

#include <QChartView>

#include <memory>
#include <vector>

class QScatterSeries;

namespace tapestry {

struct PlanCandidate;
struct SearchOutcome;

// Step time against peak memory per device for every candidate of a search, one series
// per role (searched, best so far, expert reference), each point labelled with its plan,
// and the memory limit (and the HBM capacity, when the limit is lower) as vertical lines.
// Clicking a point opens that candidate.
class ParetoChartView : public QChartView {
    Q_OBJECT

public:
    explicit ParetoChartView(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const SearchOutcome> results);
    // Where a candidate's point is drawn, in viewport coordinates (for tests).
    [[nodiscard]] QPoint pointPosition(const PlanCandidate& candidate) const;

signals:
    void candidateClicked(std::shared_ptr<const tapestry::PlanCandidate> candidate);

private:
    void onPointClicked(const QPointF& point);
    void placeLabels();

    std::shared_ptr<const SearchOutcome> results_;
    std::vector<QGraphicsSimpleTextItem*> labels_;  // parallel to results_->candidates
};

}  // namespace tapestry
