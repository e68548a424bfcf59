#include "cluster/Cluster.h"

#include "base/Error.h"

#include <algorithm>

namespace tapestry {

const BusBandwidthCurve* Cluster::curve(CollectiveKind kind, LinkClass linkClass) const
{
    const auto it = curves.find({kind, linkClass});
    return it == curves.end() ? nullptr : &it->second;
}

int Cluster::nvlinkDomainSize() const
{
    const int domain = gpusPerNvlinkDomain > 0 ? gpusPerNvlinkDomain : gpusPerNode;
    return std::min(domain, deviceCount());
}

Cluster Cluster::withNodes(int nodeCount) const
{
    if (nodeCount < 1)
        throw Error(ErrorCode::InvalidArgument, {},
                    "a cluster needs at least one node, not " + std::to_string(nodeCount));
    if (const long long gpus = static_cast<long long>(nodeCount) * gpusPerNode;
        gpusPerNvlinkDomain > 0 && gpus > gpusPerNvlinkDomain && gpus % gpusPerNvlinkDomain != 0)
        throw Error(ErrorCode::InvalidArgument, {},
                    name + ": " + std::to_string(nodeCount) + " nodes of " + std::to_string(gpusPerNode) +
                        " GPUs do not fill whole NVLink domains of " + std::to_string(gpusPerNvlinkDomain) + " GPUs");
    if (nodeCount == nodes)
        return *this;
    Cluster scaled = *this;
    scaled.nodes = nodeCount;
    scaled.name = name + " (" + std::to_string(nodeCount) + (nodeCount == 1 ? " node)" : " nodes)");
    return scaled;
}

}  // namespace tapestry
