#include "cluster/DeviceMesh.h"

#include "base/Error.h"

#include <set>

namespace tapestry {

namespace {

std::string shapeText(const std::vector<int>& sizes)
{
    std::string text = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(sizes[i]);
    return text + "]";
}

AxisGroup groupOn(int size, int nodes, int gpusPerNode)
{
    const GroupSpan span = nodes == 1 ? GroupSpan::IntraNode : gpusPerNode == 1 ? GroupSpan::InterNode : GroupSpan::Mixed;
    return {size, nodes, gpusPerNode, span};
}

// The group of the axis with `size` devices at device-number `stride` apart, or nullopt
// when some group holds different numbers of GPUs on different nodes (or differs from
// another group). Walks every device once: groups are visited in device order, and a
// group's members are increasing so the nodes it touches come as contiguous runs.
std::optional<AxisGroup> axisGroup(int size, long long stride, int deviceCount, int gpusPerDomain)
{
    std::optional<AxisGroup> shape;
    for (long long base = 0; base < deviceCount; ++base) {
        if ((base / stride) % size != 0)
            continue;  // not the first member of its group
        int nodes = 0;
        int run = 0;
        int runLength = -1;
        long long lastNode = -1;
        for (int t = 0; t < size; ++t) {
            const long long node = (base + t * stride) / gpusPerDomain;
            if (node != lastNode) {
                if (lastNode >= 0) {
                    if (runLength >= 0 && run != runLength)
                        return std::nullopt;
                    runLength = run;
                }
                ++nodes;
                run = 0;
                lastNode = node;
            }
            ++run;
        }
        if (runLength >= 0 && run != runLength)
            return std::nullopt;
        const AxisGroup group = groupOn(size, nodes, run);
        if (shape && *shape != group)
            return std::nullopt;
        shape = group;
    }
    return shape;
}

std::optional<std::vector<AxisGroup>> axisGroups(const std::vector<int>& sizes, int gpusPerDomain)
{
    int deviceCount = 1;
    for (const int size : sizes)
        deviceCount *= size;
    std::vector<AxisGroup> groups(sizes.size());
    long long stride = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        const auto group = axisGroup(sizes[i], stride, deviceCount, gpusPerDomain);
        if (!group)
            return std::nullopt;
        groups[i] = *group;
        stride *= sizes[i];
    }
    return groups;
}

}  // namespace

const char* groupSpanName(GroupSpan span)
{
    switch (span) {
    case GroupSpan::IntraNode: return "intra";
    case GroupSpan::InterNode: return "inter";
    case GroupSpan::Mixed: return "mixed";
    }
    return "unknown";
}

DeviceMesh::DeviceMesh(std::vector<MeshAxis> axes, const Cluster& cluster)
    : axes_(std::move(axes)), gpusPerNode_(cluster.gpusPerNode)
{
    if (axes_.empty())
        throw Error(ErrorCode::InvalidMesh, {}, "a mesh needs at least one axis");
    if (axes_.size() > kMaxMeshAxes)
        throw Error(ErrorCode::InvalidMesh, {},
                    "a mesh of " + std::to_string(axes_.size()) + " axes: at most " + std::to_string(kMaxMeshAxes));
    std::set<std::string> names;
    long long product = 1;
    bool stoppedEarly = false;
    for (const MeshAxis& axis : axes_) {
        if (axis.name.empty())
            throw Error(ErrorCode::InvalidMesh, {}, "mesh axis names must not be empty");
        if (!names.insert(axis.name).second)
            throw Error(ErrorCode::InvalidMesh, {}, "mesh axis name \"" + axis.name + "\" is used twice");
        if (axis.size < 1)
            throw Error(ErrorCode::InvalidMesh, {},
                        "mesh axis \"" + axis.name + "\" has size " + std::to_string(axis.size) + "; sizes must be >= 1");
        product *= axis.size;
        if (product > cluster.deviceCount() && &axis != &axes_.back()) {
            stoppedEarly = true;  // reported below; also keeps the product from overflowing
            break;
        }
    }
    const std::vector<int> sizes = shape();
    if (product != cluster.deviceCount())
        throw Error(ErrorCode::InvalidMesh, {},
                    "mesh " + shapeText(sizes) + " has " + (stoppedEarly ? "at least " : "")
                        + std::to_string(product) + " devices but cluster \"" + cluster.name + "\" has "
                        + std::to_string(cluster.nodes) + " x " + std::to_string(cluster.gpusPerNode) + " = "
                        + std::to_string(cluster.deviceCount()) + " GPUs");
    deviceCount_ = cluster.deviceCount();
    const int domain = cluster.nvlinkDomainSize();
    auto groups = axisGroups(sizes, domain);
    if (!groups)
        throw Error(ErrorCode::InvalidMesh, {},
                    "mesh " + shapeText(sizes) + " does not split evenly over "
                        + (domain == cluster.gpusPerNode ? "nodes" : "NVLink domains") + " of "
                        + std::to_string(domain) + " GPUs: some axis group would hold different numbers of GPUs on different "
                        + (domain == cluster.gpusPerNode ? "nodes" : "domains"));
    groups_ = std::move(*groups);
}

AxisGroup DeviceMesh::groupOf(AxisMask axes) const
{
    int size = 1;
    int nodes = 1;
    int gpusPerNode = 1;
    for (std::size_t axis = 0; axis < groups_.size(); ++axis) {
        if ((axes & (AxisMask{1} << axis)) == 0)
            continue;
        const AxisGroup& own = groups_[axis];
        size *= own.size;
        nodes *= own.nodes;
        gpusPerNode *= own.gpusPerNode;
    }
    return groupOn(size, nodes, gpusPerNode);
}

std::optional<std::size_t> DeviceMesh::findAxis(std::string_view name) const
{
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        if (axes_[i].name == name)
            return i;
    }
    return std::nullopt;
}

std::vector<int> DeviceMesh::shape() const
{
    std::vector<int> sizes;
    sizes.reserve(axes_.size());
    for (const MeshAxis& axis : axes_)
        sizes.push_back(axis.size);
    return sizes;
}

std::vector<int> DeviceMesh::coordinates(int device) const
{
    if (device < 0 || device >= deviceCount_)
        throw Error(ErrorCode::InvalidArgument, {}, "device " + std::to_string(device) + " is outside the mesh");
    std::vector<int> coords(axes_.size());
    for (std::size_t i = axes_.size(); i-- > 0;) {
        coords[i] = device % axes_[i].size;
        device /= axes_[i].size;
    }
    return coords;
}

int DeviceMesh::device(const std::vector<int>& coordinates) const
{
    if (coordinates.size() != axes_.size())
        throw Error(ErrorCode::InvalidArgument, {}, "mesh coordinates need one value per axis");
    int d = 0;
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        if (coordinates[i] < 0 || coordinates[i] >= axes_[i].size)
            throw Error(ErrorCode::InvalidArgument, {},
                        "coordinate " + std::to_string(coordinates[i]) + " is outside axis \"" + axes_[i].name + "\"");
        d = d * axes_[i].size + coordinates[i];
    }
    return d;
}

DevicePlacement DeviceMesh::placement(int device) const
{
    if (device < 0 || device >= deviceCount_)
        throw Error(ErrorCode::InvalidArgument, {}, "device " + std::to_string(device) + " is outside the mesh");
    return {device / gpusPerNode_, device % gpusPerNode_};
}

std::string DeviceMesh::toString() const
{
    std::string names;
    for (const MeshAxis& axis : axes_)
        names += (names.empty() ? "" : ", ") + axis.name;
    return shapeText(shape()) + " (" + names + ")";
}

std::vector<std::vector<int>> meshShapes(const Cluster& cluster)
{
    const int n = cluster.deviceCount();
    std::vector<std::vector<int>> shapes{{n}};
    for (int a = 2; a <= n / 2; ++a) {
        if (n % a == 0 && axisGroups({a, n / a}, cluster.nvlinkDomainSize()))
            shapes.push_back({a, n / a});
    }
    return shapes;
}

std::optional<SplitGroup> splitGroup(const AxisGroup& group, int inner)
{
    if (inner < 1 || group.size % inner != 0)
        return std::nullopt;
    const int outer = group.size / inner;
    const int perDomain = group.gpusPerNode;
    if (inner <= perDomain) {
        if (perDomain % inner != 0)
            return std::nullopt;
        return SplitGroup{groupOn(inner, 1, inner), groupOn(outer, group.nodes, perDomain / inner)};
    }
    if (inner % perDomain != 0)
        return std::nullopt;
    return SplitGroup{groupOn(inner, inner / perDomain, perDomain), groupOn(outer, outer, 1)};
}

}  // namespace tapestry
