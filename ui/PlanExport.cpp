#include "PlanExport.h"

#include "fold/FoldedModel.h"
#include "export/ExportFile.h"
#include "export/GraphPictureExport.h"
#include "export/HfTpPlanExport.h"
#include "export/OnnxShardingExport.h"
#include "export/PyTorchPlanExport.h"

namespace tapestry {

QList<ExportFormat> PlanExport::formats()
{
    return {ExportFormat::PlanJson, ExportFormat::PyTorch, ExportFormat::HfJson, ExportFormat::HfPython,
            ExportFormat::Onnx,     ExportFormat::Dot,     ExportFormat::Svg,    ExportFormat::Png};
}

QString PlanExport::name(ExportFormat format)
{
    switch (format) {
    case ExportFormat::PlanJson: return tr("Tapestry plan (JSON)");
    case ExportFormat::PyTorch: return tr("PyTorch DTensor plan (Python)");
    case ExportFormat::HfJson: return tr("Hugging Face tp_plan (JSON)");
    case ExportFormat::HfPython: return tr("Hugging Face tp_plan (Python)");
    case ExportFormat::Onnx: return tr("ONNX model with sharding annotations");
    case ExportFormat::Dot: return tr("Graph view as Graphviz DOT");
    case ExportFormat::Svg: return tr("Graph view as SVG");
    case ExportFormat::Png: return tr("Graph view as PNG");
    }
    return {};
}

QString PlanExport::suffix(ExportFormat format)
{
    switch (format) {
    case ExportFormat::PlanJson:
    case ExportFormat::HfJson: return QStringLiteral("json");
    case ExportFormat::PyTorch:
    case ExportFormat::HfPython: return QStringLiteral("py");
    case ExportFormat::Onnx: return QStringLiteral("onnx");
    case ExportFormat::Dot: return QStringLiteral("dot");
    case ExportFormat::Svg: return QStringLiteral("svg");
    case ExportFormat::Png: return QStringLiteral("png");
    }
    return {};
}

QString PlanExport::filter(ExportFormat format)
{
    return tr("%1 (*.%2)").arg(name(format), suffix(format));
}

bool PlanExport::needsPlan(ExportFormat format)
{
    return format != ExportFormat::Dot && format != ExportFormat::Svg && format != ExportFormat::Png;
}

std::string PlanExport::render(ExportFormat format, const FoldedModel& folded, const PlanDocument& document,
                               GraphViewKind view)
{
    const Graph& graph = folded.graph();
    const GraphView pictureView = view == GraphViewKind::Coarse ? GraphView::Coarse : GraphView::Folded;
    switch (format) {
    case ExportFormat::PlanJson: return planToJson(document, folded.coarse, folded.families);
    case ExportFormat::PyTorch: return exportPyTorchPlan(graph, folded.coarse, folded.families, document.plan);
    case ExportFormat::HfJson:
        return exportHfTpPlanJson(graph, folded.coarse, folded.families, document.plan, HfPlanKeys::Model);
    case ExportFormat::HfPython:
        return exportHfTpPlanPython(graph, folded.coarse, folded.families, document.plan, HfPlanKeys::Model);
    case ExportFormat::Onnx: return exportShardedOnnx(graph, folded.coarse, folded.families, document);
    case ExportFormat::Dot:
        return exportGraphPicture(graph, folded.coarse, folded.families, pictureView, PictureFormat::Dot);
    case ExportFormat::Svg:
        return exportGraphPicture(graph, folded.coarse, folded.families, pictureView, PictureFormat::Svg);
    case ExportFormat::Png:
        return exportGraphPicture(graph, folded.coarse, folded.families, pictureView, PictureFormat::Png);
    }
    return {};
}

void PlanExport::write(ExportFormat format, const FoldedModel& folded, const PlanDocument& document,
                       GraphViewKind view, const std::filesystem::path& file)
{
    writeExportFile(file, render(format, folded, document, view));
}

}  // namespace tapestry
