#pragma once

#include "search/StrategyChoices.h"

#include <QAbstractTableModel>

#include <memory>

namespace tapestry {

// The strategies one edit target may take with the cost each would cause: a thin view
// over an immutable StrategyChoices swapped in whole. SortRole gives raw numbers
// (seconds, bytes); the current strategy's row is bold and says "current" in place of a delta.
class StrategyChoicesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { StrategyColumn, StepColumn, StepDeltaColumn, MemoryColumn, MemoryDeltaColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit StrategyChoicesModel(QObject* parent = nullptr);

    // `mesh` names the axes in the strategy column; a choice whose memory exceeds
    // `hbmBytes` (the GPU's; 0: not known) is marked in red, as the results mark a plan
    // that does not fit. Null clears the table.
    void setChoices(std::shared_ptr<const StrategyChoices> choices, std::vector<MeshAxis> mesh, double hbmBytes = 0);
    [[nodiscard]] const std::shared_ptr<const StrategyChoices>& choices() const { return choices_; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const StrategyChoices> choices_;
    std::vector<MeshAxis> mesh_;
    double hbmBytes_ = 0;
};

}  // namespace tapestry
