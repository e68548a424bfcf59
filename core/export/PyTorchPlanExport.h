#pragma once

#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <string>

namespace tapestry {

class Graph;

// The plan as a Python file for PyTorch's DTensor tensor parallelism: the device mesh
// (init_device_mesh over the plan's mesh, axis names kept), a `plan` dict of module path
// ("*" for every layer of a family) to ColwiseParallel / RowwiseParallel /
// SequenceParallel with the input and output layouts the plan implies
// (moduleStyleTables), and `apply(model)` calling parallelize_module on the
// tensor-parallel axis. With several tensor-parallel axes each gets a `plan_<axis>` dict
// and apply uses the last; a pure data-parallel plan gets an empty plan and the mesh.
// Only the names the file uses are imported.
[[nodiscard]] std::string exportPyTorchPlan(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                            const Plan& plan);

}  // namespace tapestry
