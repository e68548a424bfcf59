#pragma once

#include "cluster/DeviceMesh.h"
#include "fold/CoarseGraph.h"
#include "plan/AxisSplit.h"
#include "plan/AxisSplits.h"
#include "plan/PipelineLayout.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// One coarse node's strategy: its split along each mesh axis.
struct NodeStrategy {
    AxisSplits axes;
    bool operator==(const NodeStrategy&) const = default;
};

enum class PlanOrigin : std::uint8_t { Expert, Search, Edit, Import };

[[nodiscard]] const char* planOriginName(PlanOrigin origin);
[[nodiscard]] std::optional<PlanOrigin> planOriginFromName(std::string_view name);

// A plan: a strategy for every coarse node on a named mesh, run as a pipeline of
// `pipeline.stages` copies of that mesh when the pipeline is active.
// Invariants (checked by validatePlan): strategies.size() equals the coarse node count;
// every strategy has one split per mesh axis, each legal for its node's kind; the
// pipeline layout is valid.
struct Plan {
    std::string name;
    PlanOrigin origin = PlanOrigin::Expert;
    std::string parent;               // the plan this one was derived from, if any
    std::vector<std::string> pins;    // coarse node or family names fixed by the user
    std::vector<MeshAxis> mesh;            // one pipeline stage's devices
    std::vector<NodeStrategy> strategies;  // indexed by CoarseNodeId
    PipelineLayout pipeline;

    [[nodiscard]] const NodeStrategy& strategy(CoarseNodeId id) const { return strategies.at(id.index()); }
};

// The plan's whole mesh: the pipeline axis "pp" first when the pipeline is active,
// then the stage mesh; and the devices it runs on.
[[nodiscard]] std::vector<MeshAxis> planMeshAxes(const Plan& plan);
[[nodiscard]] int planDeviceCount(const Plan& plan);

// Throws Error(InvalidPlan) naming the first coarse node whose strategy does not fit.
void validatePlan(const Plan& plan, const CoarseGraph& coarse);
// The same with the strategies of `nodes` only checked: for a plan whose other nodes
// repeat theirs (its caller knows).
void validatePlan(const Plan& plan, const CoarseGraph& coarse, const std::vector<CoarseNodeId>& nodes);

}  // namespace tapestry
