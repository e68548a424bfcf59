#pragma once

#include "plan/PlanFile.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

struct FoldedModel;

struct TrainingStackImport {
    PlanDocument document;
    std::vector<std::string> warnings;  // what the file says that the plan reads differently
};

// Megatron-LM arguments (parseMegatronArguments) or a torchtitan job config
// (parseTorchTitanConfig) as the plan planFromTrainingStackSettings makes for `gpuCount`
// GPUs (0: unknown), its workload checked against the plan's sizes (checkWorkload, fields
// named as the file names them, two sequence chunks per context-parallel rank as both
// stacks cut them). Throws the parsers', planFromTrainingStackSettings' and
// checkWorkload's errors (InvalidPlan), naming `fileName`.
[[nodiscard]] TrainingStackImport importMegatronArguments(std::string_view text, const std::string& fileName,
                                                          const FoldedModel& model, int gpuCount);
[[nodiscard]] TrainingStackImport importTorchTitanConfig(std::string_view text, const std::string& fileName,
                                                         const FoldedModel& model, int gpuCount);

// The plan a PyTorch export carries (importPyTorchPlanExport), as written; or `text` as an
// expert plan when it is Megatron-LM arguments (isMegatronArguments) or a
// torchtitan job config (isTorchTitanConfig, or any file named *.toml); nothing for other
// files: importMegatronArguments' or importTorchTitanConfig's.
[[nodiscard]] std::optional<TrainingStackImport> importTrainingStackPlan(std::string_view text,
                                                                         const std::string& fileName,
                                                                         const FoldedModel& model, int gpuCount);

}  // namespace tapestry
