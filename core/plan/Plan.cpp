#include "plan/Plan.h"

#include "base/Error.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tapestry {

const char* planOriginName(PlanOrigin origin)
{
    switch (origin) {
    case PlanOrigin::Expert: return "expert";
    case PlanOrigin::Search: return "search";
    case PlanOrigin::Edit: return "edit";
    case PlanOrigin::Import: return "import";
    }
    return "expert";
}

std::optional<PlanOrigin> planOriginFromName(std::string_view name)
{
    for (const PlanOrigin origin : {PlanOrigin::Expert, PlanOrigin::Search, PlanOrigin::Edit, PlanOrigin::Import}) {
        if (name == planOriginName(origin))
            return origin;
    }
    return std::nullopt;
}

std::vector<MeshAxis> planMeshAxes(const Plan& plan)
{
    std::vector<MeshAxis> axes;
    if (plan.pipeline.active())
        axes.push_back({"pp", plan.pipeline.stages});
    axes.insert(axes.end(), plan.mesh.begin(), plan.mesh.end());
    return axes;
}

int planDeviceCount(const Plan& plan)
{
    int devices = 1;
    for (const MeshAxis& axis : planMeshAxes(plan))
        devices *= axis.size;
    return devices;
}

namespace {

void validateShape(const Plan& plan, const CoarseGraph& coarse)
{
    validatePipelineLayout(plan.pipeline);
    if (plan.strategies.size() != coarse.nodes.size())
        throw Error(ErrorCode::InvalidPlan, {},
                    "plan '" + plan.name + "' has " + std::to_string(plan.strategies.size()) +
                        " node strategies, the model has " + std::to_string(coarse.nodes.size()) + " coarse nodes");
}

void validateStrategy(const Plan& plan, const CoarseNode& node)
{
    const NodeStrategy& strategy = plan.strategies[node.id.index()];
    if (strategy.axes.size() != plan.mesh.size())
        throw Error(ErrorCode::InvalidPlan, {},
                    "node '" + node.name + "' has " + std::to_string(strategy.axes.size()) + " axis splits for a " +
                        std::to_string(plan.mesh.size()) + "-axis mesh");
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        if (!isLegalSplit(node.kind, strategy.axes[a]))
            throw Error(ErrorCode::InvalidPlan, {},
                        std::string("node '") + node.name + "' (" + coarseNodeKindName(node.kind) +
                            ") cannot use split '" + axisSplitName(strategy.axes[a]) + "' on axis '" +
                            plan.mesh[a].name + "'");
    }
}

// Per coarse node kind, a bit per split of legalSplits (what isLegalSplit answers), found
// once per plan checked whole: a node whose axes all have their bit passes
// validateStrategy; any other is checked by it (which says what does not fit). A stack
// search checks every plan it builds whole, across every node.
class LegalSplitMasks {
public:
    [[nodiscard]] bool passes(const Plan& plan, const CoarseNode& node)
    {
        const NodeStrategy& strategy = plan.strategies[node.id.index()];
        const auto kind = static_cast<std::size_t>(node.kind);
        // legalSplits answers an unknown kind as elementwise, isLegalSplit refuses it.
        if (strategy.axes.size() != plan.mesh.size() || node.kind > CoarseNodeKind::Elementwise)
            return false;
        if (!found_[kind]) {
            for (const AxisSplit split : legalSplits(node.kind))
                masks_[kind] |= 1u << static_cast<unsigned>(split);
            found_[kind] = true;
        }
        return std::all_of(strategy.axes.begin(), strategy.axes.end(), [&](AxisSplit split) {
            return static_cast<unsigned>(split) < 32 && (masks_[kind] >> static_cast<unsigned>(split) & 1u) != 0;
        });
    }

private:
    static constexpr std::size_t kKinds = static_cast<std::size_t>(CoarseNodeKind::Elementwise) + 1;
    std::array<std::uint32_t, kKinds> masks_{};
    std::array<bool, kKinds> found_{};
};

}  // namespace

void validatePlan(const Plan& plan, const CoarseGraph& coarse)
{
    validateShape(plan, coarse);
    LegalSplitMasks legal;
    for (const CoarseNode& node : coarse.nodes) {
        if (!legal.passes(plan, node))
            validateStrategy(plan, node);
    }
}

void validatePlan(const Plan& plan, const CoarseGraph& coarse, const std::vector<CoarseNodeId>& nodes)
{
    validateShape(plan, coarse);
    for (const CoarseNodeId id : nodes)
        validateStrategy(plan, coarse.node(id));
}

}  // namespace tapestry
