#pragma once

#include "base/InlineVector.h"
#include "plan/AxisSplit.h"

namespace tapestry {

// One coarse node's splits, one per mesh axis. A plan holds one per coarse node (a
// 96-layer model has about a thousand) and a search builds, copies and compares plans
// by the hundred: meshes of up to 8 axes copy no heap block per node.
using AxisSplits = InlineVector<AxisSplit, 8>;

}  // namespace tapestry
