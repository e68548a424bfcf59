#pragma once

#include <QAbstractItemModel>

#include <memory>

namespace tapestry {

struct LoadedModel;
class ScopeTree;

// The module hierarchy of a model as a tree: one top-level row for the whole graph
// (its direct ops are the ops without a scope), under it "model", "lm_head", and so on.
// A thin view over an immutable ScopeTree; a new model replaces it in one reset.
class ScopeTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { NameColumn, TotalOpsColumn, DirectOpsColumn, ColumnCount };
    // The scope's full path ("model/layers.0"), for tooltips and tests.
    static constexpr int PathRole = Qt::UserRole + 1;

    explicit ScopeTreeModel(QObject* parent = nullptr);
    ~ScopeTreeModel() override;

    // Shows `model`'s scope tree; null clears the view.
    void setModel(std::shared_ptr<const LoadedModel> model);

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] const ScopeTree* tree() const;

    std::shared_ptr<const LoadedModel> model_;
};

}  // namespace tapestry
