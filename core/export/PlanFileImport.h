#pragma once

#include "cluster/DeviceMesh.h"
#include "plan/PlanFile.h"

#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// The kinds of file a plan is read from, told apart in one place for `import-plan` and
// the GUI's Open Plan File, drop and --open-plan.
enum class PlanFileKind {
    Tapestry,       // a Tapestry plan file (JSON)
    ShardedOnnx,    // an ONNX model written by an ONNX export: the plan file in its metadata
    TrainingStack,  // a PyTorch export, Megatron-LM arguments or a torchtitan config
    HfTpPlan,       // a Hugging Face tp_plan (a JSON object or a Python dict)
};

struct PlanFileImport {
    PlanFileKind kind = PlanFileKind::Tapestry;
    PlanDocument document;
    std::vector<std::string> warnings;  // what the file says that the plan reads differently
};

// Reads the plan in `file` for `model`: a *.onnx file as an ONNX export
// (importShardedOnnxPlan); else the training stacks' files (importTrainingStackPlan, on
// `gpuCount` GPUs, 0: unknown); else a tp_plan (a *.py file, or isHfTpPlan) laid out on
// `tpPlanMesh` (tensor parallel on its last axis) with origin Import, named after the
// file's stem; else a Tapestry plan file (planFromJson). Throws Error naming `file`: what
// the readers throw (a .py file of no kind Tapestry knows is refused as such), and
// Error(InvalidMesh) for a tp_plan without a mesh.
[[nodiscard]] PlanFileImport importPlanFile(const std::string& file, const FoldedModel& model, int gpuCount,
                                            const std::vector<MeshAxis>& tpPlanMesh);

// Whether the ONNX model `file` is an ONNX export of a plan for `model` (its metadata
// carries a plan that fits the model and names the same fingerprint), read without
// decoding the graph; false for any other file, readable or not. A dropped .onnx file is
// opened as a plan when so, and as a model otherwise.
[[nodiscard]] bool carriesPlanFor(const std::string& file, const FoldedModel& model);

}  // namespace tapestry
