#pragma once

#include "graphview/GraphViewKind.h"
#include "export/ExportFormat.h"
#include "plan/PlanFile.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <filesystem>
#include <string>

namespace tapestry {

struct FoldedModel;

// The export formats (core's ExportFormat) as the GUI offers them: translated names,
// file choosers' filters, and the write of the current view's picture or plan.
class PlanExport {
    Q_DECLARE_TR_FUNCTIONS(PlanExport)

public:
    [[nodiscard]] static QList<ExportFormat> formats();
    [[nodiscard]] static QString name(ExportFormat format);
    // The file name filter of the file chooser and the default suffix ("json").
    [[nodiscard]] static QString filter(ExportFormat format);
    [[nodiscard]] static QString suffix(ExportFormat format);
    // What a proposed file name ends with, naming the format where the suffix alone
    // does not ("-hf-tp_plan.json" beside a Tapestry plan's "-tapestry.json").
    [[nodiscard]] static QString fileEnding(ExportFormat format);
    // `fileName` without the ending of any format (or, failing that, its last suffix).
    [[nodiscard]] static QString baseName(const QString& fileName);
    // The name a file is proposed under: the model's file, the plan's whole mesh and
    // its name ("llama3_8b_shape-dp2xtp8-tap"); "graph" without either.
    [[nodiscard]] static QString defaultBaseName(const FoldedModel* folded, const PlanDocument* document);

    // renderExport() written atomically to `file`; `view` is the picture's (the scope
    // view is drawn as the folded one: Graphviz pictures exist for coarse and folded
    // only). Throws Error (WriteFailed, file; or renderExport's).
    static void write(ExportFormat format, const FoldedModel& folded, const PlanDocument& document,
                      GraphViewKind view, const std::filesystem::path& file);
};

}  // namespace tapestry
