#pragma once

#include "history/HistorySnapshot.h"

#include <QAbstractItemModel>

#include <memory>

namespace tapestry {

// The history's lineage tree (runs, their plans, plans derived from them) as a thin
// view over an immutable HistorySnapshot swapped in whole. Stale plans say so in the
// state column and are drawn in the "disabled" text colour. PlanIdRole gives a plan
// row's record id (0 elsewhere), StaleRole whether it is stale. A plan under a run reads
// "#12 tap" (the run names the model, the columns the origin and mesh), elsewhere its
// readableName, which its tooltip always holds.
class HistoryTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    // "#12 llama3_8b_shape pp2×dp1×tp8, searched: tap": the model's file, the mesh and
    // where the plan came from before its own name (a search names its plans "tap" or
    // "megatron-layout", ...: many runs have one).
    [[nodiscard]] static QString readableName(const PlanRecord& plan);

    enum Column { NameColumn, StateColumn, StepColumn, MemoryColumn, MeshColumn, TagsColumn, CreatedColumn,
                  ColumnCount };
    static constexpr int PlanIdRole = Qt::UserRole;
    static constexpr int StaleRole = Qt::UserRole + 1;

    explicit HistoryTreeModel(QObject* parent = nullptr);

    void setSnapshot(std::shared_ptr<const HistorySnapshot> snapshot);
    [[nodiscard]] const std::shared_ptr<const HistorySnapshot>& snapshot() const { return snapshot_; }
    // The plan of a row; null for runs and the "other plans" row.
    [[nodiscard]] const PlanRecord* planAt(const QModelIndex& index) const;
    // The row of a plan record; invalid if it is not in the snapshot.
    [[nodiscard]] QModelIndex indexOfPlan(PlanRecordId id) const;

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] std::size_t nodeOf(const QModelIndex& index) const;
    [[nodiscard]] QModelIndex indexOfNode(std::size_t node, int column) const;
    [[nodiscard]] QVariant display(const HistorySnapshot::Node& node, int column) const;

    std::shared_ptr<const HistorySnapshot> snapshot_;
};

}  // namespace tapestry
