#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"

#include <vector>

namespace tapestry {

// The devices of one pipeline stage. The pipeline axis is outermost (Megatron-LM's rank
// order), so with n = GPUs / stages, stage s holds devices [s n, (s + 1) n): whole nodes
// when n >= GPUs per node, else n GPUs of one node.
struct PipelineStages {
    int stages = 1;
    Cluster stageCluster;   // one stage's devices as a cluster of their own
    LinkSpec boundaryLink;  // what the sends between neighbouring stages cross (the slowest)
};

// Throws Error(InvalidMesh) when the cluster's GPUs do not split into `stages` stages of
// whole nodes or of equal parts of one node, each inside one NVLink domain or made of
// whole domains.
[[nodiscard]] PipelineStages pipelineStages(const Cluster& cluster, int stages);

// A whole mesh split into its pipeline axis (named "pp"; 1 stage when absent) and the
// mesh of one stage (the other axes, in order).
struct PipelinedMesh {
    int stages = 1;
    std::vector<MeshAxis> stageAxes;

    // "pp" first (where the devices place it), then the stage's axes.
    [[nodiscard]] std::vector<MeshAxis> wholeAxes() const;
};
// A mesh of the "pp" axis alone gets a stage mesh of one axis "d" of size 1.
[[nodiscard]] PipelinedMesh splitPipelineAxis(const std::vector<MeshAxis>& axes);

// The pipelined meshes `--mesh auto` adds to meshShapes(): pp=p,dp=d,tp=t for every
// p >= 2 up to `maxStages` and tensor-parallel degree t that divides an NVLink domain
// (tensor parallelism stays on NVLink: inside a node, or across a GB200 NVL72 rack),
// d = GPUs / (p t), whose stages pipelineStages() accepts.
[[nodiscard]] std::vector<std::vector<MeshAxis>> pipelineMeshes(const Cluster& cluster, int maxStages);

}  // namespace tapestry
