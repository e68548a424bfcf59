#pragma once

#include "export/GraphPictureExport.h"
#include "export/HfTpPlanExport.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

struct FoldedModel;
struct PlanDocument;

// The files a plan or the model's graph is exported to, by `tapestry-cli export
// --format` and the GUI's export dialog alike.
enum class ExportFormat : std::uint8_t {
    PlanJson,
    PyTorch,
    HfJson,
    HfPython,
    Megatron,
    TorchTitan,      // today's config registry (Python)
    TorchTitanToml,  // torchtitan v0.2.x's TOML job config
    Onnx,
    Dot,
    Svg,
    Png,
};

// Every format, in the order the CLI's usage and the GUI's list show them.
[[nodiscard]] const std::vector<ExportFormat>& exportFormats();
// The CLI's --format name: json, pytorch, hf, hf-python, megatron, torchtitan, torchtitan-toml, onnx,
// dot, svg, png.
[[nodiscard]] const char* exportFormatName(ExportFormat format);
[[nodiscard]] std::optional<ExportFormat> exportFormatFromName(std::string_view name);
// DOT, SVG and PNG draw the model's coarse or folded graph; the others need a plan.
[[nodiscard]] bool exportNeedsPlan(ExportFormat format);

struct ExportChoices {
    PictureView view = PictureView::Folded;  // what DOT, SVG and PNG draw
    HfPlanKeys hfKeys = HfPlanKeys::Model;  // how Hugging Face plans name modules
    int gpusPerNode = 0;  // the cluster's, when known: Megatron and torchtitan exports say where TP crosses nodes
};

// The file's bytes: `document` in `format` (each written by core's exporter of that
// name), or a picture of the model. Throws Error (a plan that does not fit the model,
// an ONNX file that cannot be re-read).
[[nodiscard]] std::string renderExport(ExportFormat format, const FoldedModel& model, const PlanDocument& document,
                                       const ExportChoices& choices = {});

}  // namespace tapestry
