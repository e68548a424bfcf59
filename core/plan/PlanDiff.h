#pragma once

#include "fold/CoarseGraph.h"
#include "plan/PlanFile.h"

#include <optional>
#include <string>
#include <vector>

namespace tapestry {

struct FamilyTable;

// One coarse node whose strategy differs between plan A and plan B.
struct NodeStrategyChange {
    CoarseNodeId node;
    std::string name;  // the coarse node's name
    NodeStrategy before;  // in A
    NodeStrategy after;   // in B
};

// B minus A, per device.
struct PlanCostDelta {
    double stepSeconds = 0;
    double computeSeconds = 0;
    double communicationSeconds = 0;
    double memoryBytes = 0;
};

struct PlanDiff {
    bool meshDiffers = false;  // then every node's strategy is compared axis by axis as given
    std::vector<NodeStrategyChange> changes;  // in coarse node order
    std::optional<PlanCostDelta> costDelta;   // when both plans carry a cost summary
};

// Changes that are one edit of a repeated block: the nodes at one position of a
// top-level family (EditTargets) whose strategies changed alike (the same before, the
// same after), named after the position with '#' for the instance
// ("model/layers.#/mlp/down_proj/MatMul") when there are several, else after the node.
struct StrategyChangeGroup {
    std::string name;
    NodeStrategy before;
    NodeStrategy after;
    std::vector<CoarseNodeId> nodes;  // ascending
};

// `diff`'s changes grouped so, in the order of each group's first node.
[[nodiscard]] std::vector<StrategyChangeGroup> groupedChanges(const PlanDiff& diff, const CoarseGraph& coarse,
                                                              const FamilyTable& families);

// Compares two plans of the same model (both have one strategy per node of `coarse`;
// Throws Error(InvalidPlan) otherwise).
[[nodiscard]] PlanDiff diffPlans(const PlanDocument& a, const PlanDocument& b, const CoarseGraph& coarse);

}  // namespace tapestry
