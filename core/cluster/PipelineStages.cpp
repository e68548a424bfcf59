#include "cluster/PipelineStages.h"

#include "base/Error.h"

#include <string>

namespace tapestry {

PipelineStages pipelineStages(const Cluster& cluster, int stages)
{
    const int gpus = cluster.deviceCount();
    auto fail = [&](const std::string& why) {
        throw Error(ErrorCode::InvalidMesh, {},
                    std::to_string(stages) + " pipeline stages on " + cluster.name + " (" + std::to_string(gpus) +
                        " GPUs, " + std::to_string(cluster.gpusPerNode) + " per node): " + why);
    };
    if (stages < 1 || gpus % stages != 0)
        fail("the GPUs do not split into that many equal stages");
    const int perStage = gpus / stages;
    PipelineStages result;
    result.stages = stages;
    if (perStage >= cluster.gpusPerNode) {
        if (perStage % cluster.gpusPerNode != 0)
            fail("a stage of " + std::to_string(perStage) + " GPUs is not a number of whole nodes");
        result.stageCluster = cluster.withNodes(perStage / cluster.gpusPerNode);
    } else {
        if (cluster.gpusPerNode % perStage != 0)
            fail("a stage of " + std::to_string(perStage) + " GPUs does not divide a node");
        result.stageCluster = cluster.withNodes(1);
        result.stageCluster.gpusPerNode = perStage;
    }
    // With more than one node some boundary crosses nodes, and the slowest send sets
    // the pace of a pipeline whose stages are balanced.
    result.boundaryLink = cluster.nodes > 1 ? cluster.interNode : cluster.intraNode;
    return result;
}

}  // namespace tapestry
