#include "plans/StrategyText.h"

#include <QCoreApplication>
#include <QStringList>

namespace tapestry {

QString splitName(AxisSplit split)
{
    switch (split) {
    case AxisSplit::None: return QCoreApplication::translate("tapestry::StrategyText", "none");
    case AxisSplit::Batch: return QCoreApplication::translate("tapestry::StrategyText", "batch");
    case AxisSplit::Sequence: return QCoreApplication::translate("tapestry::StrategyText", "sequence");
    case AxisSplit::Column: return QCoreApplication::translate("tapestry::StrategyText", "column");
    case AxisSplit::Row: return QCoreApplication::translate("tapestry::StrategyText", "row");
    case AxisSplit::Head: return QCoreApplication::translate("tapestry::StrategyText", "head");
    case AxisSplit::Hidden: return QCoreApplication::translate("tapestry::StrategyText", "hidden");
    case AxisSplit::Expert: return QCoreApplication::translate("tapestry::StrategyText", "expert");
    }
    return QLatin1String(axisSplitName(split));
}

QString nodeKindName(CoarseNodeKind kind)
{
    switch (kind) {
    case CoarseNodeKind::Linear: return QCoreApplication::translate("tapestry::StrategyText", "linear");
    case CoarseNodeKind::Conv: return QCoreApplication::translate("tapestry::StrategyText", "conv");
    case CoarseNodeKind::Embedding: return QCoreApplication::translate("tapestry::StrategyText", "embedding");
    case CoarseNodeKind::BatchedMatMul: return QCoreApplication::translate("tapestry::StrategyText", "batched-matmul");
    case CoarseNodeKind::Normalization: return QCoreApplication::translate("tapestry::StrategyText", "normalization");
    case CoarseNodeKind::Elementwise: return QCoreApplication::translate("tapestry::StrategyText", "elementwise");
    }
    return QLatin1String(coarseNodeKindName(kind));
}

QString strategyText(const std::vector<MeshAxis>& mesh, const NodeStrategy& strategy)
{
    QStringList parts;
    for (std::size_t axis = 0; axis < strategy.axes.size(); ++axis) {
        const QString name = axis < mesh.size() ? QString::fromStdString(mesh[axis].name) : QString::number(axis);
        parts << QStringLiteral("%1: %2").arg(name, splitName(strategy.axes[axis]));
    }
    return parts.join(QStringLiteral(", "));
}

QString splitsText(const NodeStrategy& strategy)
{
    QStringList parts;
    for (const AxisSplit split : strategy.axes)
        parts << splitName(split);
    return parts.join(QStringLiteral(", "));
}

QString meshAxisNames(const std::vector<MeshAxis>& mesh)
{
    QStringList names;
    for (const MeshAxis& axis : mesh)
        names << QString::fromStdString(axis.name);
    return names.join(QStringLiteral(", "));
}

QString parallelSplitText(CoarseNodeKind kind, const std::vector<MeshAxis>& mesh, const NodeStrategy& strategy)
{
    QStringList lines;
    for (std::size_t axis = 0; axis < strategy.axes.size() && axis < mesh.size(); ++axis) {
        const QString name = QString::fromStdString(mesh[axis].name);
        if (kind == CoarseNodeKind::BatchedMatMul && strategy.axes[axis] == AxisSplit::Sequence)
            lines << QCoreApplication::translate("tapestry::StrategyText",
                                                 "%1: ring attention, keys and values passed around the axis")
                         .arg(name);
        else if (strategy.axes[axis] == AxisSplit::Expert)
            lines << QCoreApplication::translate("tapestry::StrategyText",
                                                 "%1: the experts spread over the axis, tokens sent by all-to-alls")
                         .arg(name);
    }
    return lines.join(u'\n');
}

}  // namespace tapestry
