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

// Whether some attention core takes keys or values repeated from fewer heads than it
// computes (grouped-query attention): their head extent at the core's second matmul is
// larger than the fewest on the path back to their projection (keyValueHeads' walk).
// Where the stack keeps them grouped or repeated for backward then differs in memory.
[[nodiscard]] bool repeatsKeyValueHeads(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder);

}  // namespace tapestry
