#pragma once

#include "cost/PlanEvaluation.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;

// A plan's context- and expert-parallel traffic per layer, from the cost model's own
// listing (PlanEvaluation::parallelTransfers): one row per layer (the outermost repeated
// block instance holding the node, or the node outside blocks), purpose and mesh axis,
// with the collective, the links it crosses, the bytes of one call, the calls per step
// and the time per device and step, split into what runs under attention (hidden) and
// what the step waits for (exposed). An expert layer's 8 expert nodes, each carrying
// 1/8 of the all-to-alls, add up to one row; rows are in layer order. A thin view over the immutable candidate;
// SortRole gives raw numbers.
class ParallelTrafficModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        LayerColumn,
        PurposeColumn,
        CollectiveColumn,
        AxisColumn,
        LinksColumn,
        BytesColumn,      // MB per call
        CallsColumn,      // per step
        TimeColumn,       // ms per step
        HiddenColumn,     // ms per step
        ExposedColumn,    // ms per step
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit ParallelTrafficModel(QObject* parent = nullptr);

    void setPlan(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate);

    // Which technique a transfer belongs to.
    enum class Technique { RingAttention, Ulysses, Experts };
    [[nodiscard]] static Technique techniqueOf(ParallelTransfer::Purpose purpose);

    // One row: the transfers of one layer with one purpose over one axis.
    struct Row {
        QString layer;
        std::size_t layerOrder = 0;  // the layer's first node
        ParallelTransfer::Purpose purpose = ParallelTransfer::Purpose::RingForward;
        CollectiveKind kind = CollectiveKind::AllGather;
        std::size_t axis = 0;
        CollectiveBreakdown price;  // one call (the first transfer's)
        double byteCalls = 0;       // bytes x calls, summed
        double calls = 0;
        double seconds = 0;
        double exposedSeconds = 0;

        [[nodiscard]] double bytesPerCall() const { return calls > 0 ? byteCalls / calls : 0; }
        [[nodiscard]] Technique technique() const { return techniqueOf(purpose); }
    };
    [[nodiscard]] const std::vector<Row>& rows() const { return rows_; }

    [[nodiscard]] static QString purposeText(ParallelTransfer::Purpose purpose);
    // "8 GPUs, intra-node" or, for a hierarchical collective, its stages joined by " + ".
    [[nodiscard]] static QString linksText(const CollectiveBreakdown& price);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const PlanCandidate> candidate_;
    std::vector<Row> rows_;
};

}  // namespace tapestry
