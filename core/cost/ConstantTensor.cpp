#include "cost/ConstantTensor.h"

#include "fold/CoarseGraph.h"
#include "graph/Graph.h"

namespace tapestry {

bool isDerivedConstant(const Graph& graph, const CoarseGraph& coarse, TensorId id)
{
    const Tensor& t = graph.tensor(id);
    return t.role == TensorRole::Initializer ||
           (t.producer.isValid() && coarse.roles[t.producer.index()] == OpRole::Auxiliary);
}

}  // namespace tapestry
