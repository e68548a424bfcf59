#pragma once

#include <QString>

#include <optional>

namespace tapestry {

// The three drawings of one model, in tab order.
enum class GraphViewKind { Scope, Coarse, Folded };

// "scope", "coarse", "folded" (the --view option); nullopt for anything else.
[[nodiscard]] inline std::optional<GraphViewKind> graphViewKindFromName(const QString& name)
{
    if (name == QLatin1String("scope"))
        return GraphViewKind::Scope;
    if (name == QLatin1String("coarse"))
        return GraphViewKind::Coarse;
    if (name == QLatin1String("folded"))
        return GraphViewKind::Folded;
    return std::nullopt;
}

}  // namespace tapestry
