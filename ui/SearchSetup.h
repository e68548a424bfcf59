#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"
#include "cost/Workload.h"
#include "search/PlanSearch.h"

#include <vector>

namespace tapestry {

// Everything a plan search needs besides the model: the cluster (a preset with the
// user's edits and calibration curves), the mesh, the workload and the search options.
// Copied on the GUI thread and handed to the background job whole.
struct SearchSetup {
    Cluster cluster;
    std::vector<int> meshShape;  // empty: try every shape of meshShapes(cluster)
    Workload workload;
    SearchOptions options;

    // The meshes to search, axes named as tapestry-cli names them: "d" for a 1-D mesh,
    // "dp" and "tp" for a 2-D one (Megatron puts tensor parallelism on the last axis).
    [[nodiscard]] std::vector<std::vector<MeshAxis>> meshes() const;
};

}  // namespace tapestry
