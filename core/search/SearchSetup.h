#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"
#include "cost/Workload.h"
#include "search/PlanSearch.h"

#include <vector>

namespace tapestry {

// Everything a search session needs besides the model: the cluster (a preset with the
// user's edits and calibration curves), the mesh, the workload and the search options.
// Copied by the caller and handed to the session (or the GUI's background job) whole.
struct SearchSetup {
    Cluster cluster;
    std::vector<MeshAxis> mesh;  // empty: try every shape of meshShapes(cluster)
    Workload workload;
    SearchOptions options;
    // Also runs the whole-graph search on every mesh, to compare TAP with (CLI --baseline).
    bool wholeGraphBaseline = false;
    // Training techniques the search chooses per mesh instead of taking the workload's
    // (the CLI's --recompute and --zero fix them).
    bool chooseRecomputation = true;
    bool chooseZeroStage = true;

    // The meshes to search: `mesh`, or every shape of the cluster named by namedMeshAxes.
    [[nodiscard]] std::vector<std::vector<MeshAxis>> meshes() const;
    // The workloads to search each mesh with: the workload, with every recomputation
    // (none, full; selective too with unfused attention, where it differs from none) and
    // every ZeRO stage from 1 (stage 0 costs the same traffic as 1 and more memory) that
    // the search may choose.
    [[nodiscard]] std::vector<Workload> workloadVariants() const;
};

// Axes named as tapestry-cli names them: "d" for a 1-D mesh, "dp" and "tp" for a 2-D one
// (Megatron puts tensor parallelism on the last, fastest axis), "a0", "a1", ... beyond.
[[nodiscard]] std::vector<MeshAxis> namedMeshAxes(const std::vector<int>& shape);

}  // namespace tapestry
