#pragma once

#include "plan/PlanFile.h"

#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

struct FoldedModel;

// The plan as a Python module that runs it with PyTorch (torch >= 2.6): DTensor tensor
// parallelism, context parallelism, FSDP2 and pipelining. It reads the plan's mesh axes by
// role: the tensor-parallel axis (the last one on which the plan splits weights), the
// context-parallel axes (ring attention), the pipeline axis "pp", and the batch axes (the
// rest). The module defines
//   device_mesh(device_type)  init_device_mesh over every axis of the plan (pp first), with
//                             the data-parallel axes flattened into one dimension
//   local_batch(x, mesh)      this rank's share of a global [batch, sequence, ...] tensor: the
//                             batch split over the batch axes, the sequence over the context
//                             axes as context_parallel shards it (2 x cp chunks, round robin)
//   data_mesh(mesh)           the mesh whose ranks average gradients (batch and context axes)
//   apply(model, mesh)        parallelize_module with TENSOR_PLAN (module path -> Colwise /
//                             Rowwise / SequenceParallel with the layouts the plan implies;
//                             the LM head keeps its vocabulary split for loss_parallel),
//                             checkpoint_wrapper per block for recomputation, fully_shard of
//                             every block and the root over data_mesh (ZeRO 3 reshards after
//                             forward; ZeRO 0-2 keep parameters gathered)
//   step_context(mesh)        context_parallel over the context axes and loss_parallel, for
//                             forward, loss and backward
//   stage_modules, pipeline_schedule (a pipelined plan): the model cut into one module per
//                             pipeline chunk (PIPELINE_CHUNKS, from the plan's chunk starts;
//                             the blocks and end modules of other chunks set to None) and the
//                             plan's schedule over them
// and PLAN_DOCUMENT, the plan file's JSON of pyTorchRunnablePlan(document), which
// importPyTorchPlanExport reads back. What the plan does that the file cannot write (the
// axes' roles, stackSettingNotes(PyTorch)) is listed under "Not expressible in PyTorch".
[[nodiscard]] std::string exportPyTorchPlan(const FoldedModel& model, const PlanDocument& document);

// The plan the module runs where only the workload keeps the PyTorch export from running
// `document` as is: each technique as the export implements it (withStackImplementations:
// its checkpoint policy and replay, FSDP2's copies, pipeline sends waited for) and ZeRO 0
// and 1 as fully_shard keeping parameters gathered through the step (ZeRO 2). `document`
// itself where the export runs it as is, or where its code also runs other splits (Ulysses
// as ring attention, ...: what the notes list, which no plan file says).
[[nodiscard]] PlanDocument pyTorchRunnablePlan(const FoldedModel& model, const PlanDocument& document);

// The plan a file written by exportPyTorchPlan carries (its PLAN_DOCUMENT), or nothing for
// any other text. Throws planFromJson's errors, naming `fileName`.
[[nodiscard]] std::optional<PlanDocument> importPyTorchPlanExport(std::string_view text, const std::string& fileName,
                                                                  const FoldedModel& model);

}  // namespace tapestry
