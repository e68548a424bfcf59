#pragma once

#include "graph/DataType.h"

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QFormLayout;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace tapestry {

struct LoadedModel;
class OpHistogramModel;

// What `tapestry-cli inspect` prints, laid out for reading: where the model came from,
// how big it is, its inputs and outputs with shapes, and which op types it is made of.
// Value labels carry object names ("opCountValue", "parameterCountValue", ...) so tests
// and screenshots can find them.
class ModelSummaryView : public QWidget {
    Q_OBJECT

public:
    explicit ModelSummaryView(QWidget* parent = nullptr);

    // Shows `model`; null clears every field.
    void setModel(const std::shared_ptr<const LoadedModel>& model);
    // The workload's precision: the weight memory counts its bytes per parameter, not the
    // file's (a synthesized fp32 file trains in bf16). bf16 until set.
    void setPrecision(DataType type);

private:
    void fitValuesHeight();
    void showWeightMemory();
    // The ops the planner cannot price (ModelInfo::unsizedOps), named.
    void showUnpricedOps(const std::vector<std::string>& ops);
    // Numbers (wrap = false) stay on one line; free text wraps.
    QLabel* addValueRow(QFormLayout* form, const QString& label, const QString& objectName, bool wrap = true);

    QLabel* title_ = nullptr;
    QLabel* path_ = nullptr;
    QLabel* producer_ = nullptr;
    QLabel* graphName_ = nullptr;
    QLabel* irVersion_ = nullptr;
    QLabel* opsets_ = nullptr;
    QLabel* shapes_ = nullptr;
    QLabel* opCount_ = nullptr;
    QLabel* tensorCount_ = nullptr;
    QLabel* parameterCount_ = nullptr;
    QLabel* parameterBytes_ = nullptr;
    DataType precision_ = DataType::BFloat16;
    std::shared_ptr<const LoadedModel> model_;
    QLabel* weightCount_ = nullptr;
    QLabel* unpriced_ = nullptr;
    QTreeWidget* values_ = nullptr;
    OpHistogramModel* histogram_ = nullptr;
    QSortFilterProxyModel* sortedHistogram_ = nullptr;
    QTableView* histogramView_ = nullptr;
};

}  // namespace tapestry
