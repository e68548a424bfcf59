#include "cluster/Cluster.h"

#include "base/Error.h"

#include <numeric>

namespace tapestry {

const BusBandwidthCurve* Cluster::curve(CollectiveKind kind, LinkClass linkClass) const
{
    const auto it = curves.find({kind, linkClass});
    return it == curves.end() ? nullptr : &it->second;
}

int Cluster::nvlinkDomainSize() const
{
    const int domain = gpusPerNvlinkDomain > 0 ? gpusPerNvlinkDomain : gpusPerNode;
    return deviceCount() <= domain ? deviceCount() : std::gcd(domain, deviceCount());
}

Cluster Cluster::withNodes(int nodeCount) const
{
    if (nodeCount < 1)
        throw Error(ErrorCode::InvalidArgument, {},
                    "a cluster needs at least one node, not " + std::to_string(nodeCount));
    if (nodeCount == nodes)
        return *this;
    Cluster scaled = *this;
    scaled.nodes = nodeCount;
    scaled.name = name + " (" + std::to_string(nodeCount) + (nodeCount == 1 ? " node)" : " nodes)");
    return scaled;
}

}  // namespace tapestry
