#pragma once

#include "plan/Plan.h"

#include <vector>

namespace tapestry {

// What one pipeline stage of a plan runs on its devices, whatever axes its mesh is
// factored into: axes of one device dropped (a split over one device moves nothing), and
// each run of neighbouring axes on which every node splits the batch merged into one
// axis of their product. Ranks are numbered row-major, so a batch split over [2, 8] gives
// each GPU the same sequences as one over [16]: data parallel 16 either way, with one
// gradient collective over the same 16 ranks (CostModel prices the data axes together).
// Two plans with equal layouts, pipelines and workloads are one physical plan.
struct PhysicalLayout {
    std::vector<int> sizes;            // the merged axes' sizes
    std::vector<AxisSplits> splits;    // per coarse node, one split per merged axis
    bool operator==(const PhysicalLayout&) const = default;
};

[[nodiscard]] PhysicalLayout physicalLayout(const Plan& plan);

}  // namespace tapestry
