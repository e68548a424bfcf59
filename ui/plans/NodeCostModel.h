#pragma once

#include "plan/ParallelDegrees.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// A plan's cost per coarse node: one row per node with its kind, split on each
// mesh axis, and per-device compute, communication and memory. The split columns follow
// the plan's mesh, so the columns change with the candidate (a model reset). A thin view
// over the immutable candidate; SortRole gives raw numbers, FamilyRole the indices of
// the families the node belongs to (nested ones included).
class NodeCostModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum FixedColumn { NodeColumn, KindColumn, FirstSplitColumn };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int FamilyRole = Qt::UserRole + 1;

    explicit NodeCostModel(QObject* parent = nullptr);

    void setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate);

    [[nodiscard]] int axisCount() const;
    [[nodiscard]] int computeColumn() const { return FirstSplitColumn + axisCount(); }
    [[nodiscard]] int communicationColumn() const { return computeColumn() + 1; }
    [[nodiscard]] int collectivesColumn() const { return computeColumn() + 2; }
    [[nodiscard]] int memoryColumn() const { return computeColumn() + 3; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const PlanCandidate> candidate_;
    std::vector<QList<int>> familiesOfNode_;  // indexed by CoarseNodeId
    std::vector<ContextParallelVariant> contextVariants_;  // by mesh axis
};

}  // namespace tapestry
