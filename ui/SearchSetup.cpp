#include "SearchSetup.h"

namespace tapestry {

namespace {

std::vector<MeshAxis> namedAxes(const std::vector<int>& shape)
{
    std::vector<MeshAxis> axes;
    for (std::size_t i = 0; i < shape.size(); ++i)
        axes.push_back({shape.size() == 1 ? "d" : (i == 0 ? "dp" : "tp"), shape[i]});
    return axes;
}

}  // namespace

std::vector<std::vector<MeshAxis>> SearchSetup::meshes() const
{
    std::vector<std::vector<MeshAxis>> result;
    if (!meshShape.empty()) {
        result.push_back(namedAxes(meshShape));
        return result;
    }
    for (const std::vector<int>& shape : meshShapes(cluster))
        result.push_back(namedAxes(shape));
    return result;
}

}  // namespace tapestry
