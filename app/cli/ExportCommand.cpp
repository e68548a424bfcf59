// `tapestry-cli export PLAN.json --model MODEL --format FORMAT [--view coarse|folded] -o FILE`
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "export/ExportFile.h"
#include "export/GraphPictureExport.h"
#include "export/HfTpPlanExport.h"
#include "export/OnnxShardingExport.h"
#include "export/PyTorchPlanExport.h"
#include "graph/ModelFingerprint.h"
#include "plan/PlanFile.h"

#include <algorithm>
#include <cstdio>

namespace tapestry::cli {

namespace {

constexpr const char* kUsage =
    "usage: tapestry-cli export PLAN.json --model MODEL --format json|pytorch|hf|hf-python|onnx|dot|svg|png\n"
    "       [--view coarse|folded] [--hf-keys model|base] -o FILE";

GraphView viewFromOptions(const CommandLine& line)
{
    const std::string view = line.option("view").value_or("folded");
    if (view == "folded")
        return GraphView::Folded;
    if (view == "coarse")
        return GraphView::Coarse;
    throw Error(ErrorCode::InvalidArgument, {}, "--view is coarse or folded, not '" + view + "'");
}

HfPlanKeys hfKeysFromOptions(const CommandLine& line)
{
    const std::string keys = line.option("hf-keys").value_or("model");
    if (keys == "model")
        return HfPlanKeys::Model;
    if (keys == "base")
        return HfPlanKeys::BaseModel;
    throw Error(ErrorCode::InvalidArgument, {}, "--hf-keys is model or base, not '" + keys + "'");
}

std::string exported(const std::string& format, const CommandLine& line, const FoldedModel& model,
                     const PlanDocument& document)
{
    const Plan& plan = document.plan;
    if (format == "json")
        return planToJson(document, model.coarse, model.families);
    if (format == "pytorch")
        return exportPyTorchPlan(model.graph(), model.coarse, model.families, plan);
    if (format == "hf")
        return exportHfTpPlanJson(model.graph(), model.coarse, model.families, plan, hfKeysFromOptions(line));
    if (format == "hf-python")
        return exportHfTpPlanPython(model.graph(), model.coarse, model.families, plan, hfKeysFromOptions(line));
    if (format == "onnx")
        return exportShardedOnnx(model.graph(), model.coarse, model.families, document);
    if (format == "dot")
        return exportGraphPicture(model.graph(), model.coarse, model.families, viewFromOptions(line), PictureFormat::Dot);
    if (format == "svg")
        return exportGraphPicture(model.graph(), model.coarse, model.families, viewFromOptions(line), PictureFormat::Svg);
    if (format == "png")
        return exportGraphPicture(model.graph(), model.coarse, model.families, viewFromOptions(line), PictureFormat::Png);
    throw Error(ErrorCode::InvalidArgument, {}, "unknown --format '" + format + "'\n" + kUsage);
}

}  // namespace

int runExport(const std::vector<std::string>& args)
{
    const CommandLine line(args, {});
    line.rejectUnknown({"model", "format", "view", "hf-keys", "output"});
    const auto modelFile = line.option("model");
    const auto format = line.option("format");
    const auto output = line.option("output");
    if (line.positionals().size() != 1 || !modelFile || !format || !output)
        throw Error(ErrorCode::InvalidArgument, {}, kUsage);

    const FoldedModel model = loadAndFold(*modelFile);
    const std::string& planFile = line.positionals().front();
    const PlanDocument document = loadPlanFile(planFile, model.coarse, model.families);
    const std::string fingerprint = modelFingerprint(model.graph());
    if (!document.modelFingerprint.empty() && document.modelFingerprint != fingerprint)
        std::fprintf(stderr, "tapestry-cli export: note: %s was made for another model (fingerprint %s, this model %s)\n",
                     planFile.c_str(), document.modelFingerprint.c_str(), fingerprint.c_str());
    const bool externalData = std::any_of(model.graph().initializers().begin(), model.graph().initializers().end(),
                                          [](const Initializer& i) { return i.location == DataLocation::External; });
    if (*format == "onnx" && externalData &&
        std::filesystem::absolute(*output).parent_path() != std::filesystem::absolute(*modelFile).parent_path())
        std::fprintf(stderr,
                     "tapestry-cli export: note: external-data paths stay relative to the model's folder; "
                     "keep %s beside %s or move its weight files along\n",
                     output->c_str(), modelFile->c_str());
    writeExportFile(*output, exported(*format, line, model, document));
    std::printf("wrote %s (%s)\n", output->c_str(), format->c_str());
    return 0;
}

}  // namespace tapestry::cli
