#include "search/SearchSetup.h"

#include "cluster/PipelineStages.h"
#include "target/StackRules.h"

#include <string>

namespace tapestry {

std::vector<std::vector<MeshAxis>> SearchSetup::meshes() const
{
    if (!mesh.empty())
        return {splitPipelineAxis(mesh).wholeAxes()};
    std::vector<std::vector<MeshAxis>> result;
    for (const std::vector<int>& shape : meshShapes(cluster))
        result.push_back(namedMeshAxes(shape));
    for (std::vector<MeshAxis>& pipelined : pipelineMeshes(cluster, cluster.deviceCount()))
        result.push_back(std::move(pipelined));
    return result;
}

std::vector<Workload> SearchSetup::workloadVariants(bool pipelined) const
{
    const std::vector<Recomputation> recomputations = chooseRecomputation
                                                          ? stackRecomputations(options.stack, workload.attention)
                                                          : std::vector<Recomputation>{workload.recompute};
    const std::vector<int> stages =
        chooseZeroStage ? stackZeroStages(options.stack, pipelined) : std::vector<int>{workload.zeroStage};
    std::vector<Workload> variants;
    for (const Recomputation recompute : recomputations) {
        for (const int stage : stages) {
            Workload w = workload;
            w.recompute = recompute;
            w.zeroStage = stage;
            variants.push_back(w);
        }
    }
    return variants;
}

std::vector<std::int64_t> SearchSetup::pipelineMicroBatches() const
{
    if (workload.microBatch > 0 || !chooseMicroBatch)
        return {workload.microBatch};
    return {1, 2, 4, 8};
}

std::vector<PipelineLayout> pipelineLayoutVariants(int stages, std::size_t blocks)
{
    std::vector<PipelineLayout> layouts;
    if (stages < 2 || blocks < static_cast<std::size_t>(stages))
        return layouts;
    PipelineLayout oneF;
    oneF.stages = stages;
    layouts.push_back(oneF);
    for (int v = 2; v <= 8; ++v) {
        if (blocks % static_cast<std::size_t>(stages * v) != 0)
            continue;
        PipelineLayout interleaved;
        interleaved.stages = stages;
        interleaved.virtualStages = v;
        interleaved.schedule = PipelineSchedule::Interleaved;
        layouts.push_back(interleaved);
    }
    return layouts;
}

}  // namespace tapestry
