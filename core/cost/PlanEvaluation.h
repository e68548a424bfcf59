#pragma once

#include "cost/CostBreakdown.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace tapestry {

// One pipeline stage of a priced plan.
struct StageCost {
    std::vector<std::pair<std::size_t, std::size_t>> blockRanges;  // [first, end) block of each chunk
    // Its nodes over the step with its sends and its wait (bubble); memory with the
    // micro-batches in flight.
    CostBreakdown cost;
    double microBatchSeconds = 0;  // forward + backward of one micro-batch, sends included
    double inFlightMicroBatches = 1;
};

// A plan priced: per op, per coarse node, per family and for the whole model.
// Invariants: each coarse node's breakdown is the sum of its ops' (in op order), priced
// on the devices that run it; a family's is the sum over the nodes of all its
// instances. Without a pipeline the total is the sum of the nodes' (in node order);
// with one it is the slowest stage's time and the fullest stage's memory (PipelineCost.h).
struct PlanEvaluation {
    CostBreakdown total;
    std::vector<CostBreakdown> perOp;     // indexed by OpId
    std::vector<CostBreakdown> perNode;   // indexed by CoarseNodeId
    std::vector<CostBreakdown> perFamily; // indexed by FamilyId
    double hbmBytes = 0;                  // capacity per device
    std::vector<StageCost> stages;        // empty without a pipeline
    int microBatches = 1;                 // per step and data-parallel rank

    [[nodiscard]] bool fitsInMemory() const { return total.memory.total() <= hbmBytes; }
};

}  // namespace tapestry
