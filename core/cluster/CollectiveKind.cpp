#include "cluster/CollectiveKind.h"

namespace tapestry {

const char* collectiveKindName(CollectiveKind kind)
{
    switch (kind) {
    case CollectiveKind::AllReduce: return "allReduce";
    case CollectiveKind::AllGather: return "allGather";
    case CollectiveKind::ReduceScatter: return "reduceScatter";
    case CollectiveKind::AllToAll: return "allToAll";
    }
    return "unknown";
}

std::optional<CollectiveKind> collectiveKindFromName(std::string_view name)
{
    for (const CollectiveKind kind : kAllCollectiveKinds) {
        if (name == collectiveKindName(kind))
            return kind;
    }
    return std::nullopt;
}

double busBandwidthFactor(CollectiveKind kind, int groupSize)
{
    if (groupSize <= 1)
        return 0.0;
    const double n = groupSize;
    const double ring = (n - 1.0) / n;
    return kind == CollectiveKind::AllReduce ? 2.0 * ring : ring;
}

}  // namespace tapestry
