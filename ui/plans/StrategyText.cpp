#include "plans/StrategyText.h"

#include <QCoreApplication>
#include <QStringList>

namespace tapestry {

QString strategyText(const std::vector<MeshAxis>& mesh, const NodeStrategy& strategy)
{
    QStringList parts;
    for (std::size_t axis = 0; axis < strategy.axes.size(); ++axis) {
        const QString name = axis < mesh.size() ? QString::fromStdString(mesh[axis].name) : QString::number(axis);
        parts << QStringLiteral("%1: %2").arg(name, QLatin1String(axisSplitName(strategy.axes[axis])));
    }
    return parts.join(QStringLiteral(", "));
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
