#pragma once

#include "cluster/DeviceMesh.h"
#include "fold/CoarseGraph.h"
#include "plan/AxisSplit.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// One coarse node's strategy: its split along each mesh axis.
struct NodeStrategy {
    std::vector<AxisSplit> axes;
    bool operator==(const NodeStrategy&) const = default;
};

enum class PlanOrigin : std::uint8_t { Expert, Search, Edit, Import };

[[nodiscard]] const char* planOriginName(PlanOrigin origin);
[[nodiscard]] std::optional<PlanOrigin> planOriginFromName(std::string_view name);

// A tensor-/data-parallel plan: a strategy for every coarse node on a named mesh.
// Invariants (checked by validatePlan): strategies.size() equals the coarse node count;
// every strategy has one split per mesh axis, each legal for its node's kind.
struct Plan {
    std::string name;
    PlanOrigin origin = PlanOrigin::Expert;
    std::string parent;               // the plan this one was derived from, if any
    std::vector<std::string> pins;    // coarse node or family names fixed by the user
    std::vector<MeshAxis> mesh;
    std::vector<NodeStrategy> strategies;  // indexed by CoarseNodeId

    [[nodiscard]] const NodeStrategy& strategy(CoarseNodeId id) const { return strategies.at(id.index()); }
};

// Throws Error(InvalidPlan) naming the first coarse node whose strategy does not fit.
void validatePlan(const Plan& plan, const CoarseGraph& coarse);

}  // namespace tapestry
