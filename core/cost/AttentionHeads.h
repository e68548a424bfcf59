#pragma once

namespace tapestry {

struct CoarseGraph;
class Graph;
class ShapeBinder;

// The fewest key-value heads of any attention in the model (0: none found): the heads
// of the keys and values before grouped-query attention repeats them per query head.
// Read off the tensors leading into each attention core's second matmul input (the keys
// transposed, or the values): the smallest head extent (dim 1 of a rank-4 or -5 tensor)
// on the path back from it to the projection that made it.
[[nodiscard]] int keyValueHeads(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder);

}  // namespace tapestry
