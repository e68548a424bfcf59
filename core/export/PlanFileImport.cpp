#include "export/PlanFileImport.h"

#include "base/Error.h"
#include "base/TextFile.h"
#include "export/HfTpPlanImport.h"
#include "export/OnnxShardingExport.h"
#include "export/TrainingStackImport.h"
#include "fold/FoldedModel.h"
#include "onnx/OnnxMetadata.h"

#include <filesystem>
#include <optional>

namespace tapestry {

namespace {

bool isOnnxFileName(const std::string& file)
{
    std::string suffix = std::filesystem::path(file).extension().string();
    for (char& c : suffix)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return suffix == ".onnx";
}

}  // namespace

PlanFileImport importPlanFile(const std::string& file, const FoldedModel& model, int gpuCount,
                              const std::vector<MeshAxis>& tpPlanMesh)
{
    PlanFileImport imported;
    if (isOnnxFileName(file)) {
        imported.kind = PlanFileKind::ShardedOnnx;
        imported.document = importShardedOnnxPlan(file, model.coarse, model.families);
        return imported;
    }
    const std::string text = readTextFile(file);
    if (std::optional<TrainingStackImport> stack = importTrainingStackPlan(text, file, model, gpuCount)) {
        imported.kind = PlanFileKind::TrainingStack;
        imported.document = std::move(stack->document);
        imported.warnings = std::move(stack->warnings);
        return imported;
    }
    if (file.ends_with(".py") || isHfTpPlan(text)) {
        // Read first: a .py file of no kind Tapestry knows is refused for what it is, not
        // for a missing mesh.
        const std::vector<HfTpPlanEntry> entries = parseHfTpPlan(text, file);
        if (tpPlanMesh.empty())
            throw Error(ErrorCode::InvalidMesh, file,
                        "is a Hugging Face tp_plan, which does not say its mesh (tensor parallel on its last axis)");
        ImportedPlan plan = planFromHfTpPlan(entries, model.graph(), model.coarse, tpPlanMesh);
        imported.kind = PlanFileKind::HfTpPlan;
        imported.document.plan = std::move(plan.plan);
        imported.document.plan.origin = PlanOrigin::Import;
        imported.document.plan.name = std::filesystem::path(file).stem().string();
        imported.document.modelFingerprint = model.fingerprint;
        imported.warnings = std::move(plan.warnings);
        return imported;
    }
    imported.document = planFromJson(text, file, model.coarse, model.families);
    return imported;
}

bool carriesPlanFor(const std::string& file, const FoldedModel& model)
{
    try {
        const std::optional<std::string> plan = onnxMetadataValue(file, kOnnxPlanMetadataKey);
        return plan && planFromJson(*plan, file, model.coarse, model.families).modelFingerprint == model.fingerprint;
    } catch (const Error&) {
        return false;
    }
}

}  // namespace tapestry
