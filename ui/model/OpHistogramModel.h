#pragma once

#include "graph/ModelSummary.h"

#include <QAbstractTableModel>

#include <vector>

namespace tapestry {

// How often each op type occurs, with its share of all ops. Rows come in the summary's
// order (most frequent first); SortRole gives numbers for a QSortFilterProxyModel and
// BarFractionRole each count relative to the largest, for a bar (ShareBarDelegate).
class OpHistogramModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { TypeColumn, CountColumn, ShareColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int BarFractionRole = Qt::UserRole + 2;

    explicit OpHistogramModel(QObject* parent = nullptr);

    void setHistogram(std::vector<OpTypeCount> histogram, std::size_t opCount);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::vector<OpTypeCount> histogram_;
    std::size_t opCount_ = 0;
    std::uint64_t largestCount_ = 0;
};

}  // namespace tapestry
