#include "cluster/PipelineStages.h"

#include "base/Error.h"

#include <algorithm>
#include <string>

namespace tapestry {

namespace {

// Why `perStage` GPUs are not one pipeline stage of `cluster`, or empty when they are:
// whole nodes or an equal part of one, within one NVLink domain or whole domains.
std::string stageMisfit(const Cluster& cluster, int perStage)
{
    if (perStage >= cluster.gpusPerNode) {
        if (perStage % cluster.gpusPerNode != 0)
            return "a stage of " + std::to_string(perStage) + " GPUs is not a number of whole nodes";
    } else if (cluster.gpusPerNode % perStage != 0) {
        return "a stage of " + std::to_string(perStage) + " GPUs does not divide a node";
    }
    const int domain = cluster.nvlinkDomainSize();
    if (perStage > domain ? perStage % domain != 0 : domain % perStage != 0)
        return "a stage of " + std::to_string(perStage) + " GPUs straddles NVLink domains of " + std::to_string(domain);
    return {};
}

}  // namespace

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
    if (const std::string misfit = stageMisfit(cluster, perStage); !misfit.empty())
        fail(misfit);
    PipelineStages result;
    result.stages = stages;
    if (perStage >= cluster.gpusPerNode) {
        result.stageCluster = cluster.withNodes(perStage / cluster.gpusPerNode);
    } else {
        result.stageCluster = cluster.withNodes(1);
        result.stageCluster.gpusPerNode = perStage;
    }
    // With more than one NVLink domain some boundary crosses domains, and the slowest
    // send sets the pace of a pipeline whose stages are balanced.
    result.boundaryLink = gpus > cluster.nvlinkDomainSize() ? cluster.interNode : cluster.intraNode;
    return result;
}

PipelinedMesh splitPipelineAxis(const std::vector<MeshAxis>& axes)
{
    PipelinedMesh split;
    for (const MeshAxis& axis : axes) {
        if (axis.name == "pp")
            split.stages = axis.size;
        else
            split.stageAxes.push_back(axis);
    }
    // "pp=16" alone: one GPU per stage.
    if (split.stageAxes.empty() && !axes.empty())
        split.stageAxes.push_back({"d", 1});
    return split;
}

std::vector<MeshAxis> PipelinedMesh::wholeAxes() const
{
    std::vector<MeshAxis> axes;
    if (stages > 1)
        axes.push_back({"pp", stages});
    axes.insert(axes.end(), stageAxes.begin(), stageAxes.end());
    return axes;
}

std::vector<std::vector<MeshAxis>> pipelineMeshes(const Cluster& cluster, int maxStages)
{
    const int gpus = cluster.deviceCount();
    std::vector<std::vector<MeshAxis>> meshes;
    for (int p = 2; p <= std::min(gpus, maxStages); ++p) {
        if (gpus % p != 0)
            continue;
        const int perStage = gpus / p;
        if (!stageMisfit(cluster, perStage).empty())
            continue;
        const int domain = cluster.nvlinkDomainSize();
        for (int t = 1; t <= std::min(perStage, domain); ++t) {
            if (domain % t == 0 && perStage % t == 0)
                meshes.push_back({{"pp", p}, {"dp", perStage / t}, {"tp", t}});
        }
    }
    return meshes;
}

}  // namespace tapestry
