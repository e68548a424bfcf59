#pragma once

#include "base/InlineVector.h"

namespace tapestry {

// Seconds per mesh axis, indexed by axis. A plan's evaluation keeps one per op (tens of
// thousands for a deep model, thousands of evaluations per search), and stage meshes
// have a few axes: up to 6 are kept inline.
using AxisSeconds = InlineVector<double, 6>;

}  // namespace tapestry
