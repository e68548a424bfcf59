#pragma once

#include <QSortFilterProxyModel>

namespace tapestry {

// Sorts a NodeCostModel by raw values and keeps the rows whose node name contains the
// filter text and that lie in the chosen block family (all rows for kAnyFamily, the
// nodes outside every family for kNoFamily).
class NodeCostFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    static constexpr int kAnyFamily = -1;
    static constexpr int kNoFamily = -2;

    explicit NodeCostFilterModel(QObject* parent = nullptr);
    void setFamily(int family);
    [[nodiscard]] int family() const { return family_; }

protected:
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int family_ = kAnyFamily;
};

}  // namespace tapestry
