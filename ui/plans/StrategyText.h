#pragma once

#include "cluster/DeviceMesh.h"
#include "plan/Plan.h"

#include <QString>

#include <vector>

namespace tapestry {

// A strategy as the tables show it, its split per named mesh axis: "dp: batch, tp: column".
[[nodiscard]] QString strategyText(const std::vector<MeshAxis>& mesh, const NodeStrategy& strategy);

}  // namespace tapestry
