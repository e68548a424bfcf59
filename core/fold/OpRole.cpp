#include "fold/OpRole.h"

#include "graph/Graph.h"

namespace tapestry {

const char* opRoleName(OpRole role)
{
    switch (role) {
    case OpRole::Auxiliary: return "auxiliary";
    case OpRole::Linear: return "linear";
    case OpRole::Conv: return "conv";
    case OpRole::Embedding: return "embedding";
    case OpRole::BatchedMatMul: return "batched-matmul";
    case OpRole::Follower: return "follower";
    }
    return "unknown";
}

bool isAnchorRole(OpRole role)
{
    return role == OpRole::Linear || role == OpRole::Conv || role == OpRole::Embedding ||
           role == OpRole::BatchedMatMul;
}

namespace {

bool isAuxiliaryInput(const Graph& graph, const std::vector<bool>& auxiliaryTensor, TensorId id)
{
    return !id.isValid() || auxiliaryTensor[id.index()] || graph.tensor(id).role == TensorRole::OuterScope;
}

OpRole activationRole(const Graph& graph, const Op& op, const std::vector<bool>& auxiliaryTensor)
{
    auto constantAt = [&](std::size_t i) {
        return op.inputs.size() > i && op.inputs[i].isValid() && auxiliaryTensor[op.inputs[i].index()];
    };
    if (!op.domain.empty())
        return OpRole::Follower;
    if (op.type == "MatMul" || op.type == "Gemm")
        return constantAt(1) || constantAt(0) ? OpRole::Linear : OpRole::BatchedMatMul;
    if ((op.type == "Conv" || op.type == "ConvTranspose") && constantAt(1))
        return OpRole::Conv;
    if (op.type == "Gather" && constantAt(0) && isFloatingPoint(graph.tensor(op.inputs[0]).dtype))
        return OpRole::Embedding;
    return OpRole::Follower;
}

}  // namespace

std::vector<OpRole> classifyOps(const Graph& graph)
{
    std::vector<bool> auxiliaryTensor(graph.tensors().size(), false);
    for (const Tensor& tensor : graph.tensors())
        auxiliaryTensor[tensor.id.index()] = tensor.role == TensorRole::Initializer;

    std::vector<OpRole> roles(graph.opCount(), OpRole::Follower);
    for (const OpId id : graph.topologicalOrder()) {
        const Op& op = graph.op(id);
        // A table lookup stays an embedding even when its indices are derived from shapes
        // (GPT-2's position embedding reads positions made by Range).
        const bool lookup = op.domain.empty() && op.type == "Gather" && !op.inputs.empty() &&
                            op.inputs[0].isValid() && graph.tensor(op.inputs[0]).role == TensorRole::Initializer &&
                            graph.tensor(op.inputs[0]).shape.rank() == 2;
        bool auxiliary = op.domain.empty() && (op.type == "Shape" || op.type == "Size");
        if (!auxiliary && !lookup) {
            auxiliary = true;
            for (const TensorId input : op.inputs)
                auxiliary = auxiliary && isAuxiliaryInput(graph, auxiliaryTensor, input);
        }
        roles[id.index()] = auxiliary ? OpRole::Auxiliary : activationRole(graph, op, auxiliaryTensor);
        if (auxiliary) {
            for (const TensorId output : op.outputs) {
                if (output.isValid())
                    auxiliaryTensor[output.index()] = true;
            }
        }
    }
    return roles;
}

}  // namespace tapestry
