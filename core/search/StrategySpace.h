#pragma once

#include "plan/Plan.h"

#include <vector>

namespace tapestry {

// Every strategy a node of `kind` may take on a mesh of `axisCount` axes: the product of
// its legal splits per axis (two axes splitting one dimension is ATP's 2D layout), in a
// fixed order with "batch on every axis" first.
[[nodiscard]] std::vector<NodeStrategy> strategiesFor(CoarseNodeKind kind, std::size_t axisCount);

}  // namespace tapestry
