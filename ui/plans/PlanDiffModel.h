#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace tapestry {

struct PlanComparison;
struct StrategyChangeGroup;

// The nodes whose strategies differ between two plans: one row per group of changes
// (PlanComparison::groups: one edit of a repeated block is one row, groupName) with its
// strategy in A and in B, and B minus A of its nodes' own step time and memory per
// device, summed. A thin view over an immutable PlanComparison; SortRole gives raw
// numbers (seconds, bytes).
class PlanDiffModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { NodeColumn, StrategyAColumn, StrategyBColumn, StepDeltaColumn, MemoryDeltaColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit PlanDiffModel(QObject* parent = nullptr);

    // A group's name on its row: "model/layers.#/mlp/down_proj/MatMul ×32" for one edit
    // of a repeated block, the node's name for a node alone.
    [[nodiscard]] static QString groupName(const StrategyChangeGroup& group);

    // Null clears the table.
    void setComparison(std::shared_ptr<const PlanComparison> comparison);
    [[nodiscard]] const std::shared_ptr<const PlanComparison>& comparison() const { return comparison_; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const PlanComparison> comparison_;
};

}  // namespace tapestry
