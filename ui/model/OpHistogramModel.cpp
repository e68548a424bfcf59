#include "model/OpHistogramModel.h"

#include "common/QuantityFormat.h"

#include <QLocale>

#include <algorithm>

namespace tapestry {

OpHistogramModel::OpHistogramModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpHistogramModel::setHistogram(std::vector<OpTypeCount> histogram, std::size_t opCount)
{
    beginResetModel();
    histogram_ = std::move(histogram);
    opCount_ = opCount;
    largestCount_ = 0;
    for (const OpTypeCount& entry : histogram_)
        largestCount_ = std::max(largestCount_, entry.count);
    endResetModel();
}

int OpHistogramModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(histogram_.size());
}

int OpHistogramModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpHistogramModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const OpTypeCount& entry = histogram_[static_cast<std::size_t>(index.row())];
    const double share = opCount_ == 0 ? 0.0 : 100.0 * static_cast<double>(entry.count) / static_cast<double>(opCount_);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TypeColumn: return QString::fromStdString(entry.type);
        case CountColumn: return QuantityFormat::exact(entry.count);
        case ShareColumn: return tr("%1 %").arg(QLocale().toString(share, 'f', 1));
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case TypeColumn: return QString::fromStdString(entry.type);
        case CountColumn: return qulonglong{entry.count};
        case ShareColumn: return share;
        }
    }
    if (role == BarFractionRole && index.column() == ShareColumn && largestCount_ > 0)
        return static_cast<double>(entry.count) / static_cast<double>(largestCount_);
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return (Qt::AlignRight | Qt::AlignVCenter).toInt();
    return {};
}

QVariant OpHistogramModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case TypeColumn: return tr("Op type");
        case CountColumn: return tr("Count");
        case ShareColumn: return tr("Share");
        }
    }
    if (role == Qt::TextAlignmentRole && section == CountColumn)
        return (Qt::AlignRight | Qt::AlignVCenter).toInt();
    return {};
}

}  // namespace tapestry
