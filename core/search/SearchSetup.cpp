#include "search/SearchSetup.h"

#include <string>

namespace tapestry {

std::vector<MeshAxis> namedMeshAxes(const std::vector<int>& shape)
{
    std::vector<MeshAxis> axes;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        std::string name;
        if (shape.size() == 1)
            name = "d";
        else if (shape.size() == 2)
            name = i == 0 ? "dp" : "tp";
        else
            name = "a" + std::to_string(i);
        axes.push_back({std::move(name), shape[i]});
    }
    return axes;
}

std::vector<std::vector<MeshAxis>> SearchSetup::meshes() const
{
    if (!mesh.empty())
        return {mesh};
    std::vector<std::vector<MeshAxis>> result;
    for (const std::vector<int>& shape : meshShapes(cluster))
        result.push_back(namedMeshAxes(shape));
    return result;
}

std::vector<Workload> SearchSetup::workloadVariants() const
{
    std::vector<Recomputation> recomputations{workload.recompute};
    if (chooseRecomputation) {
        recomputations = {Recomputation::None, Recomputation::Full};
        if (workload.attention == AttentionKernel::Unfused)
            recomputations.insert(recomputations.begin() + 1, Recomputation::Selective);
    }
    std::vector<int> stages{workload.zeroStage};
    if (chooseZeroStage)
        stages = {1, 2, 3};
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

}  // namespace tapestry
