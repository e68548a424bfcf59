#include "plans/StrategyText.h"

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

}  // namespace tapestry
