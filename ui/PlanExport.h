#pragma once

#include "GraphViewKind.h"
#include "plan/PlanFile.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <filesystem>
#include <string>

namespace tapestry {

struct FoldedModel;

// The files a plan or the model's graph is exported to: the formats of
// `tapestry-cli export`, each written by core's exporter of the same name.
enum class ExportFormat { PlanJson, PyTorch, HfJson, HfPython, Onnx, Dot, Svg, Png };

class PlanExport {
    Q_DECLARE_TR_FUNCTIONS(PlanExport)

public:
    [[nodiscard]] static QList<ExportFormat> formats();
    [[nodiscard]] static QString name(ExportFormat format);
    // The file name filter of the file chooser and the default suffix ("json").
    [[nodiscard]] static QString filter(ExportFormat format);
    [[nodiscard]] static QString suffix(ExportFormat format);
    // DOT, SVG and PNG draw the model's coarse or folded graph; the others need a plan.
    [[nodiscard]] static bool needsPlan(ExportFormat format);

    // The file's bytes: `document` in `format`, or a picture of `view` (the scope view
    // is drawn as the folded one: Graphviz pictures exist for coarse and folded only).
    // Throws Error (a plan that does not fit, an ONNX file that cannot be re-read).
    [[nodiscard]] static std::string render(ExportFormat format, const FoldedModel& folded,
                                            const PlanDocument& document, GraphViewKind view);
    // render() written atomically to `file`. Throws Error(WriteFailed, file).
    static void write(ExportFormat format, const FoldedModel& folded, const PlanDocument& document,
                      GraphViewKind view, const std::filesystem::path& file);
};

}  // namespace tapestry
