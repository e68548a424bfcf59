#include "plans/PlanExport.h"

#include "fold/FoldedModel.h"
#include "base/AtomicFile.h"
#include "export/ExportFormat.h"
#include "plans/PlanSummary.h"

#include <QFileInfo>
#include <QStringList>

namespace tapestry {

QList<ExportFormat> PlanExport::formats()
{
    return QList<ExportFormat>(exportFormats().begin(), exportFormats().end());
}

QString PlanExport::name(ExportFormat format)
{
    switch (format) {
    case ExportFormat::PlanJson: return tr("Tapestry plan (JSON)");
    case ExportFormat::PyTorch: return tr("PyTorch DTensor plan (Python)");
    case ExportFormat::HfJson: return tr("Hugging Face tp_plan (JSON)");
    case ExportFormat::HfPython: return tr("Hugging Face tp_plan (Python)");
    case ExportFormat::Megatron: return tr("Megatron-LM arguments (shell)");
    case ExportFormat::TorchTitan: return tr("torchtitan config (Python)");
    case ExportFormat::TorchTitanToml: return tr("torchtitan v0.2 job config (TOML)");
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
    case ExportFormat::Megatron: return QStringLiteral("sh");
    case ExportFormat::TorchTitan: return QStringLiteral("py");
    case ExportFormat::TorchTitanToml: return QStringLiteral("toml");
    case ExportFormat::Onnx: return QStringLiteral("onnx");
    case ExportFormat::Dot: return QStringLiteral("dot");
    case ExportFormat::Svg: return QStringLiteral("svg");
    case ExportFormat::Png: return QStringLiteral("png");
    }
    return {};
}

QString PlanExport::fileEnding(ExportFormat format)
{
    switch (format) {
    case ExportFormat::PlanJson: return QStringLiteral("-tapestry.json");
    case ExportFormat::PyTorch: return QStringLiteral("-dtensor.py");
    case ExportFormat::HfJson: return QStringLiteral("-hf-tp_plan.json");
    case ExportFormat::HfPython: return QStringLiteral("-hf-tp_plan.py");
    case ExportFormat::Megatron: return QStringLiteral("-megatron.sh");
    case ExportFormat::TorchTitan: return QStringLiteral("-torchtitan.py");
    case ExportFormat::TorchTitanToml: return QStringLiteral("-torchtitan.toml");
    case ExportFormat::Onnx: return QStringLiteral("-sharded.onnx");
    case ExportFormat::Dot:
    case ExportFormat::Svg:
    case ExportFormat::Png: return u'.' + suffix(format);
    }
    return {};
}

QString PlanExport::baseName(const QString& fileName)
{
    QString longest;
    for (const ExportFormat format : formats()) {
        const QString ending = fileEnding(format);
        if (fileName.endsWith(ending) && ending.size() > longest.size())
            longest = ending;
    }
    if (!longest.isEmpty())
        return fileName.chopped(longest.size());
    const qsizetype dot = fileName.lastIndexOf(u'.');
    return dot > 0 ? fileName.left(dot) : fileName;
}

QString PlanExport::defaultBaseName(const FoldedModel* folded, const PlanDocument* document)
{
    QStringList parts;
    if (folded)
        parts << QFileInfo(QString::fromStdString(folded->graph().info().sourcePath)).completeBaseName();
    if (document) {
        QStringList axes;
        for (const MeshAxis& axis : planMeshAxes(document->plan))
            axes << QString::fromStdString(axis.name) + QString::number(axis.size);
        parts << axes.join(u'x') << QString::fromStdString(document->plan.name).replace(u'/', u'-');
    }
    parts.removeAll(QString());
    return parts.isEmpty() ? QStringLiteral("graph") : parts.join(u'-');
}

QString PlanExport::filter(ExportFormat format)
{
    return tr("%1 (*.%2)").arg(name(format), suffix(format));
}

std::optional<ExportedPlanPrice> PlanExport::write(ExportFormat format, const std::shared_ptr<const FoldedModel>& folded,
                                                   const PlanDocument& document, GraphViewKind view,
                                                   const std::optional<Cluster>& cluster,
                                                   const std::filesystem::path& file)
{
    const PictureView pictureView = view == GraphViewKind::Coarse ? PictureView::Coarse : PictureView::Folded;
    const PlanExportText written = planExportText(format, folded, document, {pictureView, HfPlanKeys::Model}, cluster);
    writeFileAtomically(file, written.text);
    return written.price;
}

QString PlanExport::nearestPlanText(ExportFormat format, const ExportedPlanPrice& price)
{
    // Only Megatron-LM's and torchtitan's files hold a nearest plan.
    const TrainingStack stack = format == ExportFormat::Megatron ? TrainingStack::Megatron : TrainingStack::TorchTitan;
    QString text = tr("Not the plan Tapestry priced: %1 does not run it as is. The file runs the nearest plan it "
                      "expresses, priced %L2 ms and %L3 GB per GPU against the plan's %L4 ms and %L5 GB.")
                       .arg(PlanSummary::stackName(stack))
                       .arg(price.fileStepSeconds * 1e3, 0, 'f', 1)
                       .arg(price.fileMemoryBytes / 1e9, 0, 'f', 2)
                       .arg(price.planStepSeconds * 1e3, 0, 'f', 1)
                       .arg(price.planMemoryBytes / 1e9, 0, 'f', 2);
    if (price.hbmBytes > 0 && price.fileMemoryBytes > price.hbmBytes)
        text += u' ' + tr("It does not fit in the GPU's %L1 GB.").arg(price.hbmBytes / 1e9, 0, 'f', 2);
    return text;
}

}  // namespace tapestry
