#include "export/ExportFormat.h"

#include "export/MegatronArguments.h"
#include "export/OnnxShardingExport.h"
#include "export/PyTorchPlanExport.h"
#include "export/TorchTitanConfig.h"
#include "export/TorchTitanTrainerConfig.h"
#include "fold/FoldedModel.h"
#include "plan/PlanFile.h"

namespace tapestry {

const std::vector<ExportFormat>& exportFormats()
{
    static const std::vector<ExportFormat> all{
        ExportFormat::PlanJson,   ExportFormat::PyTorch, ExportFormat::HfJson, ExportFormat::HfPython,
        ExportFormat::Megatron,   ExportFormat::TorchTitan, ExportFormat::TorchTitanToml, ExportFormat::Onnx, ExportFormat::Dot,
        ExportFormat::Svg,        ExportFormat::Png};
    return all;
}

const char* exportFormatName(ExportFormat format)
{
    switch (format) {
    case ExportFormat::PlanJson: return "json";
    case ExportFormat::PyTorch: return "pytorch";
    case ExportFormat::HfJson: return "hf";
    case ExportFormat::HfPython: return "hf-python";
    case ExportFormat::Megatron: return "megatron";
    case ExportFormat::TorchTitan: return "torchtitan";
    case ExportFormat::TorchTitanToml: return "torchtitan-toml";
    case ExportFormat::Onnx: return "onnx";
    case ExportFormat::Dot: return "dot";
    case ExportFormat::Svg: return "svg";
    case ExportFormat::Png: return "png";
    }
    return "?";
}

std::optional<ExportFormat> exportFormatFromName(std::string_view name)
{
    for (const ExportFormat format : exportFormats()) {
        if (name == exportFormatName(format))
            return format;
    }
    return std::nullopt;
}

bool exportNeedsPlan(ExportFormat format)
{
    return format != ExportFormat::Dot && format != ExportFormat::Svg && format != ExportFormat::Png;
}

std::string renderExport(ExportFormat format, const FoldedModel& model, const PlanDocument& document,
                         const ExportChoices& choices)
{
    const Graph& graph = model.graph();
    switch (format) {
    case ExportFormat::PlanJson: return planToJson(document, model.coarse, model.families);
    case ExportFormat::PyTorch: return exportPyTorchPlan(model, document);
    case ExportFormat::HfJson:
        return exportHfTpPlanJson(graph, model.coarse, model.families, document.plan, choices.hfKeys);
    case ExportFormat::HfPython:
        return exportHfTpPlanPython(graph, model.coarse, model.families, document.plan, choices.hfKeys);
    case ExportFormat::Megatron: return exportMegatronArguments(model, document, choices.gpusPerNode);
    case ExportFormat::TorchTitan: return exportTorchTitanTrainerConfig(model, document, choices.gpusPerNode);
    case ExportFormat::TorchTitanToml: return exportTorchTitanConfig(model, document, choices.gpusPerNode);
    case ExportFormat::Onnx: return exportShardedOnnx(graph, model.coarse, model.families, document);
    case ExportFormat::Dot: return exportGraphPicture(graph, model.coarse, model.families, choices.view, PictureFormat::Dot);
    case ExportFormat::Svg: return exportGraphPicture(graph, model.coarse, model.families, choices.view, PictureFormat::Svg);
    case ExportFormat::Png: return exportGraphPicture(graph, model.coarse, model.families, choices.view, PictureFormat::Png);
    }
    return {};
}

}  // namespace tapestry
