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

// `text` as an expert plan when it is Megatron-LM arguments (isMegatronArguments) or a
// torchtitan job config (isTorchTitanConfig, or any file named *.toml); nothing for other
// files. The plan is planFromTrainingStackSettings' for `gpuCount` GPUs (0: unknown).
// Throws the parsers' and planFromTrainingStackSettings' errors, naming `fileName`.
[[nodiscard]] std::optional<TrainingStackImport> importTrainingStackPlan(std::string_view text,
                                                                         const std::string& fileName,
                                                                         const FoldedModel& model, int gpuCount);

}  // namespace tapestry
