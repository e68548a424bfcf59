#include "fold/ActivationWalk.h"

#include "fold/CoarseGraph.h"
#include "graph/Graph.h"

namespace tapestry {

bool isDerivedConstant(const Graph& graph, const CoarseGraph& coarse, TensorId id)
{
    const Tensor& t = graph.tensor(id);
    return t.role == TensorRole::Initializer ||
           (t.producer.isValid() && coarse.roles[t.producer.index()] == OpRole::Auxiliary);
}

TensorId activationWalkedBackThrough(const Graph& graph, const CoarseGraph& coarse, OpId op)
{
    if (!op.isValid() || coarse.roles[op.index()] != OpRole::Follower)
        return {};
    TensorId activation;
    for (const TensorId input : graph.op(op).inputs) {
        if (!input.isValid() || isDerivedConstant(graph, coarse, input))
            continue;
        if (activation.isValid())
            return {};
        activation = input;
    }
    return activation;
}

}  // namespace tapestry
