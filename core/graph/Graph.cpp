#include "graph/Graph.h"

namespace tapestry {

TensorId Graph::findTensor(std::string_view name) const
{
    const auto it = tensorsByName_.find(std::string(name));
    return it == tensorsByName_.end() ? TensorId{} : it->second;
}

}  // namespace tapestry
