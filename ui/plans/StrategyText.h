#pragma once

#include "cluster/DeviceMesh.h"
#include "plan/Plan.h"

#include <QString>

#include <vector>

namespace tapestry {

// A split's name as the tables show it, translated ("column", "batch", ...).
[[nodiscard]] QString splitName(AxisSplit split);
// A coarse node's kind, translated ("linear", "embedding", ...).
[[nodiscard]] QString nodeKindName(CoarseNodeKind kind);
// A strategy as the tables show it, its split per named mesh axis: "dp: batch, tp: column".
[[nodiscard]] QString strategyText(const std::vector<MeshAxis>& mesh, const NodeStrategy& strategy);
// The splits alone, in axis order ("batch, column"), under a header that names the axes
// (meshAxisNames: "dp, tp").
[[nodiscard]] QString splitsText(const NodeStrategy& strategy);
[[nodiscard]] QString meshAxisNames(const std::vector<MeshAxis>& mesh);
// What the context- and expert-parallel splits of a node of `kind` do, one line per such
// axis ("cp: ring attention, keys and values around the axis"); empty when it has none.
[[nodiscard]] QString parallelSplitText(CoarseNodeKind kind, const std::vector<MeshAxis>& mesh,
                                        const NodeStrategy& strategy);

}  // namespace tapestry
