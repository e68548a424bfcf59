#pragma once

#include "plan/Plan.h"

#include <vector>

namespace tapestry {

// Every strategy a node of `kind` may take on a mesh with these axis sizes: the product
// of its legal splits per axis (two axes splitting one dimension is ATP's 2D layout).
// An axis of size 1 splits nothing, so it only offers "none". The "expert" split only
// for a node inside an expert (CostModel::NodeFacts::experts). The order is fixed, with
// the all-batch strategy first.
[[nodiscard]] std::vector<NodeStrategy> strategiesFor(CoarseNodeKind kind, const std::vector<int>& axisSizes,
                                                      bool expert = false);

}  // namespace tapestry
