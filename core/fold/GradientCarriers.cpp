#include "fold/GradientCarriers.h"

#include "fold/CoarseGraph.h"
#include "graph/Graph.h"

namespace tapestry {

bool isParameter(const Graph& graph, TensorId id)
{
    const Tensor& tensor = graph.tensor(id);
    if (tensor.role != TensorRole::Initializer)
        return false;
    const Initializer& init = graph.initializer(tensor.initializer);
    return isFloatingPoint(init.dtype) && !init.dims.empty();
}

std::vector<bool> gradientCarriers(const Graph& graph, const CoarseGraph& coarse)
{
    std::vector<bool> carries(graph.tensors().size(), false);
    std::vector<bool> readsParameter(graph.opCount(), false);
    for (const OpId id : graph.topologicalOrder()) {
        const Op& op = graph.op(id);
        if (coarse.roles[id.index()] == OpRole::Auxiliary) {
            for (const TensorId input : op.inputs) {
                if (input.isValid() && (isParameter(graph, input) || carries[input.index()]))
                    readsParameter[id.index()] = true;
            }
            continue;
        }
        bool flows = false;
        for (const TensorId input : op.inputs) {
            if (!input.isValid())
                continue;
            const Tensor& tensor = graph.tensor(input);
            const bool viaAuxiliary = tensor.producer.isValid() &&
                                      coarse.roles[tensor.producer.index()] == OpRole::Auxiliary &&
                                      readsParameter[tensor.producer.index()];
            flows = flows || isParameter(graph, input) || viaAuxiliary || carries[input.index()];
        }
        for (const TensorId output : op.outputs) {
            if (output.isValid())
                carries[output.index()] = flows;
        }
    }
    return carries;
}

}  // namespace tapestry
