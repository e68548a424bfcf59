#pragma once

#include "cluster/Cluster.h"

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
// whole nodes or of equal parts of one node.
[[nodiscard]] PipelineStages pipelineStages(const Cluster& cluster, int stages);

}  // namespace tapestry
