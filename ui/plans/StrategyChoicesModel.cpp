#include "plans/StrategyChoicesModel.h"

#include "plans/StrategyText.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>

namespace tapestry {

namespace {

// "+1.25", "-0.47"; a change that rounds to nothing is "0.00" (never "+0.00" or "-0.00").
QString signedNumber(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    const double shown = std::round(value * scale) / scale;
    if (shown == 0)
        return QStringLiteral("%L1").arg(0.0, 0, 'f', decimals);
    return (shown > 0 ? QStringLiteral("+") : QString()) + QStringLiteral("%L1").arg(shown, 0, 'f', decimals);
}

}  // namespace

StrategyChoicesModel::StrategyChoicesModel(QObject* parent) : QAbstractTableModel(parent) {}

void StrategyChoicesModel::setChoices(std::shared_ptr<const StrategyChoices> choices, std::vector<MeshAxis> mesh,
                                      double hbmBytes)
{
    beginResetModel();
    choices_ = std::move(choices);
    mesh_ = std::move(mesh);
    hbmBytes_ = hbmBytes;
    endResetModel();
}

int StrategyChoicesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !choices_ ? 0 : static_cast<int>(choices_->choices.size());
}

int StrategyChoicesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StrategyChoicesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !choices_)
        return {};
    const StrategyChoices::Choice& choice = choices_->choices.at(static_cast<std::size_t>(index.row()));
    const double stepDelta = choice.stepSeconds - choices_->baseStepSeconds;
    const double memoryDelta = choice.memoryBytes - choices_->baseMemoryBytes;
    if (role == Qt::FontRole && choice.current) {
        QFont font;
        font.setBold(true);
        return font;
    }
    const bool tooBig = hbmBytes_ > 0 && choice.memoryBytes > hbmBytes_;
    if (role == Qt::ForegroundRole && tooBig && index.column() == MemoryColumn)
        return QBrush(QColor(0xc6, 0x28, 0x28));
    if (role == Qt::ToolTipRole && tooBig && index.column() == MemoryColumn)
        return tr("Does not fit in the GPU's %L1 GB.").arg(hbmBytes_ / 1e9, 0, 'f', 2);
    if (role == Qt::TextAlignmentRole && index.column() != StrategyColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
        case StrategyColumn: return index.row();
        case StepColumn: return choice.stepSeconds;
        case StepDeltaColumn: return stepDelta;
        case MemoryColumn: return choice.memoryBytes;
        case MemoryDeltaColumn: return memoryDelta;
        default: return {};
        }
    }
    // The cell lists the splits under a header naming the axes ("batch, none" under
    // "Strategy (dp, tp)": a 1366 px editor cut "dp: batch, ep: batch, tp: …" before the
    // split that differs); the tooltip has it whole, with what its context- or
    // expert-parallel splits do.
    if (role == Qt::ToolTipRole && index.column() == StrategyColumn) {
        const QString meaning = parallelSplitText(choices_->target.kind, mesh_, choice.strategy);
        QString text = strategyText(mesh_, choice.strategy);
        if (!meaning.isEmpty())
            text += u'\n' + meaning;
        return text;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case StrategyColumn: return splitsText(choice.strategy);
    case StepColumn: return QStringLiteral("%L1").arg(choice.stepSeconds * 1e3, 0, 'f', 2);
    case StepDeltaColumn: return choice.current ? tr("current") : signedNumber(stepDelta * 1e3, 2);
    case MemoryColumn: return QStringLiteral("%L1").arg(choice.memoryBytes / 1e9, 0, 'f', 2);
    case MemoryDeltaColumn: return choice.current ? QString() : signedNumber(memoryDelta / 1e9, 2);
    default: return {};
    }
}

QVariant StrategyChoicesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    // Short headers leave the strategy its width in a narrow editor; the tooltip says more.
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
    case StrategyColumn:
        return tip ? tr("The split of the node's tensors on each mesh axis") : tr("Strategy (%1)").arg(meshAxisNames(mesh_));
    case StepColumn: return tip ? tr("The plan's step time with this strategy (ms)") : tr("ms");
    case StepDeltaColumn: return tip ? tr("Δ step (ms)") : QStringLiteral("Δ");
    case MemoryColumn: return tip ? tr("The plan's peak memory per device with this strategy (GB)") : tr("GB");
    case MemoryDeltaColumn: return tip ? tr("Δ memory (GB)") : QStringLiteral("Δ");
    default: return {};
    }
}

}  // namespace tapestry
