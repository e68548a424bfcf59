#include "cost/AttentionHeads.h"

#include "cost/ShapeBinder.h"
#include "fold/CoarseGraph.h"
#include "graph/Graph.h"

#include <algorithm>

namespace tapestry {

namespace {

// Ops walked back from an attention input before giving up: splitting the heads,
// rotary embeddings and the repeat take fewer than this.
constexpr int kWalkLimit = 16;

bool isProjection(const Op& op)
{
    return op.type == "MatMul" || op.type == "Gemm";
}

// The smallest head extent on the data path (first inputs) back from `tensor`.
std::int64_t fewestHeadsBefore(const Graph& graph, TensorId tensor, const ShapeBinder& binder)
{
    std::int64_t fewest = 0;
    for (int step = 0; step < kWalkLimit && tensor.isValid(); ++step) {
        const Tensor& t = graph.tensor(tensor);
        if (t.shape.isRankKnown() && (t.shape.rank() == 4 || t.shape.rank() == 5)) {
            const std::int64_t heads = binder.extents(t.shape)[1];
            if (heads > 0)
                fewest = fewest == 0 ? heads : std::min(fewest, heads);
        }
        if (!t.producer.isValid())
            break;
        const Op& producer = graph.op(t.producer);
        if (isProjection(producer) || producer.inputs.empty())
            break;
        tensor = producer.inputs.front();
    }
    return fewest;
}

// Calls `visit(keys or values, their fewest heads)` for the second input of each
// attention core's matmuls whose path back shows a head extent.
template <typename Visit>
void forEachKeyValueInput(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder, Visit visit)
{
    for (const CoarseNode& node : coarse.nodes) {
        if (node.kind != CoarseNodeKind::BatchedMatMul)
            continue;
        for (const OpId id : node.ops) {
            const Op& op = graph.op(id);
            if (op.type != "MatMul" || op.inputs.size() != 2)
                continue;
            if (const std::int64_t heads = fewestHeadsBefore(graph, op.inputs[1], binder); heads > 0)
                visit(graph.tensor(op.inputs[1]), heads);
        }
    }
}

}  // namespace

int keyValueHeads(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder)
{
    std::int64_t fewest = 0;
    forEachKeyValueInput(graph, coarse, binder, [&](const Tensor&, std::int64_t heads) {
        fewest = fewest == 0 ? heads : std::min(fewest, heads);
    });
    return static_cast<int>(fewest);
}

bool repeatsKeyValueHeads(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder)
{
    bool repeats = false;
    forEachKeyValueInput(graph, coarse, binder, [&](const Tensor& input, std::int64_t heads) {
        const int rank = input.shape.isRankKnown() ? input.shape.rank() : 0;
        repeats = repeats || ((rank == 4 || rank == 5) && binder.extents(input.shape)[1] > heads);
    });
    return repeats;
}

}  // namespace tapestry
