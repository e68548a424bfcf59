#pragma once

#include "plan/PlanFile.h"

#include <string>

namespace tapestry {

struct FoldedModel;

// The plan as a Python file for PyTorch's DTensor tensor parallelism: the device mesh
// (init_device_mesh over planMeshAxes, axis names kept), a `plan` dict of module path
// ("*" for every layer of a family) to ColwiseParallel / RowwiseParallel /
// SequenceParallel with the input and output layouts the plan implies
// (moduleStyleTables), and `apply(model)` calling parallelize_module on the
// tensor-parallel axis. With several tensor-parallel axes each gets a `plan_<axis>` dict
// and apply uses the last; a pure data-parallel plan gets an empty plan and the mesh.
// The workload and pipeline add, in apply() after parallelize_module: checkpoint_wrapper
// around every block (BLOCKS, module paths) for full recomputation, or with a selective
// checkpoint policy that recomputes attention's core for selective; FSDP2 fully_shard of
// every block and the root over the data-parallel axis for ZeRO 3
// (reshard_after_forward=False for ZeRO 2); a comment for ZeRO 1 (ZeroRedundancyOptimizer)
// and 0 (DDP). A pipelined plan gets SPLIT_SPEC (torch.distributed.pipelining SplitPoint
// at each chunk's first block) and comments with the schedule class and micro-batch count.
// Comments say which data axes run context parallelism (ring attention: PyTorch's
// context_parallel; Ulysses: not expressible) or spread experts (not expressible).
// Only the names the file uses are imported.
[[nodiscard]] std::string exportPyTorchPlan(const FoldedModel& model, const PlanDocument& document);

}  // namespace tapestry
