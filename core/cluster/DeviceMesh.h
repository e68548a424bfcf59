#pragma once

#include "cluster/Cluster.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

struct MeshAxis {
    std::string name;  // free: "dp", "tp", ...
    int size = 1;
    bool operator==(const MeshAxis&) const = default;
};

// How a mesh axis's communication group sits on the cluster. "Node" here is the NVLink
// domain (Cluster::nvlinkDomainSize): a DGX node, or a whole GB200 NVL72 rack.
enum class GroupSpan {
    IntraNode,   // k = 1: one domain, NVLink (intra) links only (also every group of size 1)
    InterNode,   // m = 1: one GPU per domain, every GPU talks through its own NIC
    Mixed,       // k > 1 and m > 1: hierarchical collectives
};

[[nodiscard]] const char* groupSpanName(GroupSpan span);

// The communication group of one mesh axis: n devices on k NVLink domains (nodes on
// DGX-class machines), m per domain, n = k * m.
// Every group of the axis has the same shape (DeviceMesh guarantees it).
struct AxisGroup {
    int size = 1;         // n
    int nodes = 1;        // k
    int gpusPerNode = 1;  // m
    GroupSpan span = GroupSpan::IntraNode;
    bool operator==(const AxisGroup&) const = default;
};

struct DevicePlacement {
    int node = 0;
    int localGpu = 0;
    bool operator==(const DevicePlacement&) const = default;
};

// A set of mesh axes, bit i for axis i (a mesh has at most kMaxMeshAxes axes).
using AxisMask = std::uint64_t;
inline constexpr std::size_t kMaxMeshAxes = 64;

// A logical mesh over a cluster. Devices are numbered row-major over the mesh (last axis
// fastest) and device d runs on node d / gpusPerNode, local GPU d % gpusPerNode; NVLink
// domains hold consecutive devices.
// Invariants: at least one axis; sizes >= 1; names non-empty and distinct; the product
// of the sizes equals the cluster's GPU count; every axis's groups hold the same number
// of GPUs in each NVLink domain they touch (so n = k * m is exact for all of them).
class DeviceMesh {
public:
    // Throws Error(InvalidMesh) with a message saying which invariant fails.
    DeviceMesh(std::vector<MeshAxis> axes, const Cluster& cluster);

    [[nodiscard]] const std::vector<MeshAxis>& axes() const { return axes_; }
    [[nodiscard]] std::size_t axisCount() const { return axes_.size(); }
    [[nodiscard]] const MeshAxis& axis(std::size_t index) const { return axes_.at(index); }
    [[nodiscard]] const AxisGroup& group(std::size_t axisIndex) const { return groups_.at(axisIndex); }
    // The group of several axes at once (bit i: axis i), as one collective over the
    // flattened sub-mesh sees it (DDP and FSDP over every data axis): n, k and m are the
    // products of the axes' own, since devices run row-major over consecutive NVLink
    // domains and every axis's groups are alike. No bit: a group of one device.
    [[nodiscard]] AxisGroup groupOf(AxisMask axes) const;
    [[nodiscard]] std::optional<std::size_t> findAxis(std::string_view name) const;
    [[nodiscard]] int deviceCount() const { return deviceCount_; }
    [[nodiscard]] std::vector<int> shape() const;

    // Mesh coordinates of a device (one per axis) and back; device in [0, deviceCount).
    [[nodiscard]] std::vector<int> coordinates(int device) const;
    [[nodiscard]] int device(const std::vector<int>& coordinates) const;
    [[nodiscard]] DevicePlacement placement(int device) const;

    // "[4, 4] (dp, tp)"
    [[nodiscard]] std::string toString() const;

    bool operator==(const DeviceMesh&) const = default;

private:
    std::vector<MeshAxis> axes_;
    std::vector<AxisGroup> groups_;
    int deviceCount_ = 0;
    int gpusPerNode_ = 1;
};

// `group`'s members, in device order, cut into groups of `inner` consecutive members
// (HSDP's shard groups) and the groups of the members `inner` apart (its replicas). Nothing
// when `inner` does not divide the group or the cut groups would hold different numbers of
// GPUs in the NVLink domains they touch (`inner` neither divides the members per domain
// nor is a multiple of them).
struct SplitGroup {
    AxisGroup inner;
    AxisGroup outer;
};
[[nodiscard]] std::optional<SplitGroup> splitGroup(const AxisGroup& group, int inner);

// Candidate mesh shapes for `--mesh auto`: the 1-D mesh [N] followed by every 2-D
// factorization [a, b] with a, b >= 2 and a * b = N (a ascending), N = the cluster's GPU
// count; shapes whose groups would not split evenly over NVLink domains are left out, so
// each returned shape makes a valid DeviceMesh on this cluster. On a GB200 NVL72 the
// last axis reaches up to the 72 GPUs of a rack inside one domain.
[[nodiscard]] std::vector<std::vector<int>> meshShapes(const Cluster& cluster);

}  // namespace tapestry
