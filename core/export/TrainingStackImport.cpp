#include "export/TrainingStackImport.h"

#include "export/MegatronArguments.h"
#include "export/TorchTitanConfig.h"

namespace tapestry {

std::optional<TrainingStackImport> importTrainingStackPlan(std::string_view text, const std::string& fileName,
                                                           const FoldedModel& model, int gpuCount)
{
    TrainingStackSettings settings;
    if (isTorchTitanConfig(text) || fileName.ends_with(".toml"))
        settings = parseTorchTitanConfig(text, fileName, model);
    else if (isMegatronArguments(text))
        settings = parseMegatronArguments(text, fileName, model);
    else
        return std::nullopt;
    TrainingStackImport imported;
    imported.document = planFromTrainingStackSettings(settings, model, fileName, gpuCount);
    imported.warnings = std::move(settings.notes);
    return imported;
}

}  // namespace tapestry
