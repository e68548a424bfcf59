#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"
#include "cluster/MeshText.h"
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
    // Without a micro-batch in the workload the search chooses it: on pipelined meshes
    // among pipelineMicroBatches() (a pipeline needs several micro-batches per step),
    // elsewhere gradient accumulation over micro-batches of 1 to 8 sequences when no
    // plan fits with the whole per-rank batch.
    bool chooseMicroBatch = true;

    // The meshes to search: `mesh` (its "pp" axis first), or every shape of the cluster
    // named by namedMeshAxes followed by the cluster's pipelineMeshes.
    [[nodiscard]] std::vector<std::vector<MeshAxis>> meshes() const;
    // The workloads to search each mesh with: the workload, with every recomputation and
    // ZeRO stage the search may choose among those the target stack runs
    // (stackRecomputations, stackZeroStages; for any stack: none and full recomputation,
    // selective too with unfused attention where it differs from none, and ZeRO 1 to 3,
    // ZeRO 1 only on a pipelined mesh). The expert references are priced with the same
    // variants, so a search for a stack compares its plan with references the stack runs.
    [[nodiscard]] std::vector<Workload> workloadVariants(bool pipelined = false) const;
    // The micro-batch sizes to try on a pipelined mesh: the workload's, or 1, 2, 4 and 8
    // sequences when it sets none and chooseMicroBatch.
    [[nodiscard]] std::vector<std::int64_t> pipelineMicroBatches() const;
};

// The layouts a search tries for `stages` pipeline stages over `blocks` blocks: 1F1B,
// and interleaved 1F1B with v = 2 to 8 chunks per stage where stages x v divides the
// blocks (Megatron-LM's condition for the interleaved schedule). Empty when there are
// fewer blocks than stages.
[[nodiscard]] std::vector<PipelineLayout> pipelineLayoutVariants(int stages, std::size_t blocks);

}  // namespace tapestry
