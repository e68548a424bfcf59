#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace tapestry {

struct PlanCandidate;
struct SearchOutcome;

// The candidates of a search as a table: one row per plan (searched, best so far, or an
// expert reference). A thin view over an immutable SearchOutcome snapshot, swapped in
// whole. SortRole gives raw numbers (seconds, bytes) for sorting and tests.
class SearchResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { PlanColumn, OriginColumn, MeshColumn, StepColumn, ComputeColumn, CommunicationColumn,
                  MemoryColumn, FitsColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit SearchResultsModel(QObject* parent = nullptr);

    void setResults(std::shared_ptr<const SearchOutcome> results);
    [[nodiscard]] const std::shared_ptr<const SearchOutcome>& results() const { return results_; }
    // Null for an invalid row.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> candidate(int row) const;
    [[nodiscard]] int rowOf(const PlanCandidate* candidate) const;

    // The label of a candidate on the list and the chart: "TAP search", "Megatron-LM".
    [[nodiscard]] static QString planLabel(const PlanCandidate& candidate);
    // What the plan is: the fastest searched plan that fits, the least-memory fallback when
    // none fits, a Pareto alternative, one dominated by another plan, ... `results` (the
    // search it belongs to) tells fitting and dominated plans apart; without it the role
    // alone is named.
    [[nodiscard]] static QString roleLabel(const PlanCandidate& candidate, const SearchOutcome* results = nullptr);
    // A plan of `results` (searched or expert, not a best-so-far one) at least as fast
    // and as small as `candidate` and better in one; null when there is none (`candidate`
    // is on the Pareto frontier).
    [[nodiscard]] static const PlanCandidate* dominatorOf(const PlanCandidate& candidate, const SearchOutcome& results);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const SearchOutcome> results_;
};

}  // namespace tapestry
