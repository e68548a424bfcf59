#include "graph/ParameterCount.h"

#include "graph/Graph.h"

namespace tapestry {

namespace {

bool isDefaultDomain(const Op& op, std::string_view type)
{
    return op.type == type && op.domain.empty();
}

bool readsAt(const Op& op, TensorId tensor, std::size_t inputIndex)
{
    return op.inputs.size() > inputIndex && op.inputs[inputIndex] == tensor;
}

// BatchNormalization's running mean and variance are statistics, not parameters.
bool isBatchNormStatistic(const Graph& graph, const Tensor& tensor)
{
    if (tensor.consumers.empty())
        return false;
    for (const OpId id : tensor.consumers) {
        const Op& op = graph.op(id);
        if (!isDefaultDomain(op, "BatchNormalization") || !(readsAt(op, tensor.id, 3) || readsAt(op, tensor.id, 4)))
            return false;
    }
    return true;
}

// An embedding table: read by Gather as its data input.
bool isEmbeddingTable(const Graph& graph, const Tensor& tensor)
{
    for (const OpId id : tensor.consumers) {
        if (readsAt(graph.op(id), tensor.id, 0) && isDefaultDomain(graph.op(id), "Gather"))
            return true;
    }
    return false;
}

// Counts `weight` once if something reads it directly, then each Identity copy of it
// as a weight of its own (the exporter merged equal initializers of different modules).
void countWeight(const Graph& graph, const Tensor& weight, const Initializer& source, bool tied,
                 ParameterCount& count)
{
    bool readDirectly = weight.isGraphOutput;
    for (const OpId consumerId : weight.consumers) {
        const Op& consumer = graph.op(consumerId);
        if (!tied && isDefaultDomain(consumer, "Identity") && !consumer.outputs.empty() &&
            consumer.outputs.front().isValid()) {
            countWeight(graph, graph.tensor(consumer.outputs.front()), source, tied, count);
            continue;
        }
        readDirectly = true;
    }
    if (readDirectly) {
        count.parameters += source.elementCount;
        count.bytes += source.byteSize;
        ++count.weights;
    }
}

}  // namespace

ParameterCount countParameters(const Graph& graph)
{
    ParameterCount count;
    for (const Initializer& initializer : graph.initializers()) {
        const Tensor& tensor = graph.tensor(initializer.tensor);
        // Scalars are constants (epsilons, scales), not parameters.
        if (!isFloatingPoint(initializer.dtype) || initializer.dims.empty() || isBatchNormStatistic(graph, tensor))
            continue;
        countWeight(graph, tensor, initializer, isEmbeddingTable(graph, tensor), count);
    }
    return count;
}

}  // namespace tapestry
