#pragma once

#include "cluster/CollectiveCost.h"
#include "cost/CostBreakdown.h"
#include "fold/CoarseGraph.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tapestry {

// One context- or expert-parallel collective of a coarse node, per device and step, as
// the cost model counts it (training.md): ring attention passing keys and values around
// a sequence-split axis, DeepSpeed-Ulysses swapping sequence and head splits, or a
// mixture-of-experts layer's tokens going to their experts and back (the conversions to
// and from the Expert layout; every expert's output carries 1/experts of its layer's
// combine, so a layer's traffic is the sum of its entries).
struct ParallelTransfer {
    enum class Purpose : std::uint8_t {
        RingForward,     // keys and values around the ring in forward (an all-gather's traffic)
        RingBackward,    // again in backward, to recompute the scores
        RingGradients,   // their gradients coming back in backward (a reduce-scatter's)
        ExpertDispatch,  // tokens to their experts, forward and backward
        ExpertCombine,   // the experts' outputs back, forward and backward
        ExpertWeights,   // each routed copy's weight to the expert applying it, its gradient back
        // Ulysses: an activation between sequence and head splits on an axis where
        // attention runs Ulysses (q, k, v to heads and the output back), the layouts' all-to-all;
        // listed at the node that reads it (forward) or made it (its gradient, backward).
        UlyssesForward,
        UlyssesBackward,
    };
    CoarseNodeId node;
    Purpose purpose = Purpose::RingForward;
    CollectiveKind kind = CollectiveKind::AllGather;
    std::size_t axis = 0;
    double bytes = 0;            // one call's payload S (CollectiveCost's convention)
    CollectiveBreakdown price;   // one call, stage by stage (link class, ranks)
    double times = 1;            // calls per step
    // The share on the critical path; the rest runs under the attention of the chunk in
    // hand. Expert and Ulysses all-to-alls are always exposed.
    double exposedShare = 1;

    [[nodiscard]] double seconds() const { return price.seconds() * times; }
    [[nodiscard]] double exposedSeconds() const { return seconds() * exposedShare; }
};

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
    int dataParallelDegree = 1;           // ranks a micro-step spreads its micro-batches over
    // Ring attention and expert all-to-alls in node order, then Ulysses' all-to-alls in
    // the order of the tensors they convert; their exposed part is in the nodes'
    // breakdowns like every collective.
    std::vector<ParallelTransfer> parallelTransfers;
    // Priced by CostModel::evaluateTotals: the total and stages only (perOp, perNode,
    // perFamily and parallelTransfers empty).
    bool totalsOnly = false;

    [[nodiscard]] bool fitsInMemory() const { return total.memory.total() <= hbmBytes; }
};

}  // namespace tapestry
