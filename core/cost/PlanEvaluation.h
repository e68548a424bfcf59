#pragma once

#include "cost/CostBreakdown.h"

#include <vector>

namespace tapestry {

// A plan priced: per op, per coarse node, per family and for the whole model.
// Invariants: each coarse node's breakdown is the sum of its ops' (in op order); the
// total is the sum of the nodes' (in node order); a family's is the sum over the nodes
// of all its instances.
struct PlanEvaluation {
    CostBreakdown total;
    std::vector<CostBreakdown> perOp;     // indexed by OpId
    std::vector<CostBreakdown> perNode;   // indexed by CoarseNodeId
    std::vector<CostBreakdown> perFamily; // indexed by FamilyId
    double hbmBytes = 0;                  // capacity per device

    [[nodiscard]] bool fitsInMemory() const { return total.memory.total() <= hbmBytes; }
};

}  // namespace tapestry
