#pragma once

#include <QWidget>

#include "search/SearchSetup.h"

#include <memory>
#include <optional>

class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;
struct SearchOutcome;
struct SearchSetup;
class ParetoChartView;
class SearchResultsModel;

// The candidates of the latest search as a sortable list, and beside it (as tabs) why the
// search chose its best plan and the step time against peak memory chart. Clicking a
// row or a point opens that plan.
class SearchResultsPanel : public QWidget {
    Q_OBJECT

public:
    explicit SearchResultsPanel(QWidget* parent = nullptr);

    // A snapshot of a running search shows its best-so-far plan only when it fits and is
    // faster than every plan shown before (the list never gets worse while it runs), and
    // the line above says so, or that no plan fits yet. Null: a new search starts.
    void setResults(std::shared_ptr<const SearchOutcome> results);
    // A line above the list: how the search went.
    void setMessage(const QString& text);
    // The model and setup of the search whose results come next: they price the MFU and
    // tokens/s of each plan. Null `folded`: none.
    void setPricing(std::shared_ptr<const FoldedModel> folded, const SearchSetup* setup);
    // Shown, in red, when some plan prices above the GPU's peak.
    [[nodiscard]] QLabel* peakWarning() const { return peakWarning_; }

    [[nodiscard]] SearchResultsModel* model() const { return model_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] ParetoChartView* chart() const { return chart_; }

signals:
    void candidateOpened(std::shared_ptr<const tapestry::PlanCandidate> candidate);

protected:
    // On a list narrower than its columns (a laptop) the Origin column goes: the plan's
    // name keeps the room, and its tooltip says the origin.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    [[nodiscard]] static QString idleMessage();
    void openRow(const QModelIndex& proxyIndex);
    void showComparisons(const SearchOutcome& results);
    [[nodiscard]] std::shared_ptr<const SearchOutcome> withSteadyBestSoFar(std::shared_ptr<const SearchOutcome> results);

    QLabel* message_ = nullptr;
    QLabel* workload_ = nullptr;  // what the plans were priced for
    QLabel* techniques_ = nullptr;  // why the best plan uses context or expert parallelism
    QLabel* peakWarning_ = nullptr;
    SearchResultsModel* model_ = nullptr;
    QSortFilterProxyModel* sorted_ = nullptr;
    QTableView* table_ = nullptr;
    ParetoChartView* chart_ = nullptr;
    QTabWidget* side_ = nullptr;  // why this plan | the chart
    std::shared_ptr<const PlanCandidate> bestSoFar_;  // the running search's, as shown
    // What the results were searched with (setPricing): which stacks run the best plan.
    std::shared_ptr<const FoldedModel> folded_;
    std::optional<SearchSetup> setup_;
};

}  // namespace tapestry
