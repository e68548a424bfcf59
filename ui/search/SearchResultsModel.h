#pragma once

#include "cost/Throughput.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tapestry {

struct PlanCandidate;
struct SearchOutcome;
class PlanThroughput;

// The candidates of a search as a table: one row per plan (searched, best so far, or an
// expert reference). A thin view over an immutable SearchOutcome snapshot, swapped in
// whole. SortRole gives raw numbers (seconds, bytes) for sorting and tests.
class SearchResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // The step's compute and communication are in its tooltip (and the inspector): the
    // list fits a laptop's width with the MFU and tokens/s beside the step.
    enum Column { PlanColumn, OriginColumn, MeshColumn, StepColumn, MfuColumn, TokensColumn, MemoryColumn, FitsColumn,
                  ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit SearchResultsModel(QObject* parent = nullptr);

    void setResults(std::shared_ptr<const SearchOutcome> results);
    // What prices the MFU and tokens/s columns of the next results (null: left empty).
    void setThroughput(std::shared_ptr<PlanThroughput> throughput);
    // The MFU and tokens/s per GPU of a row's plan; unset when not priced.
    [[nodiscard]] std::optional<Throughput> throughput(int row) const;
    // Rows whose plan prices above the GPU's peak (MFU over 100 %).
    [[nodiscard]] int rowsAbovePeak() const;
    // A plan that another row already lists as one physical plan (physicalLayout, the same
    // pipeline and workload, the same price): several searched meshes can give one plan
    // (data parallel 16 is the expert layout of [16], [2, 8], [4, 4] and [8, 2], and a
    // training stack lays each out as [16, 1]). The kept row (the search's best when it is
    // one of them, else a searched plan before an expert one) says how many more meshes in
    // its mesh cell ("[16, 1] (dp, tp) +3") and names them in its tooltip.
    [[nodiscard]] bool isRepeat(int row) const;
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
    void markRepeats();

    std::shared_ptr<const SearchOutcome> results_;
    std::shared_ptr<PlanThroughput> pricing_;
    std::map<const PlanCandidate*, Throughput> throughputs_;  // of results_'s candidates
    std::vector<bool> repeats_;                               // per row: isRepeat
    // Per kept row with repeats on other meshes: the searched meshes that gave its plan, its own first.
    std::map<const PlanCandidate*, QStringList> foundOn_;
};

}  // namespace tapestry
