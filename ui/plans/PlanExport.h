#pragma once

#include "graphview/GraphViewKind.h"
#include "export/ExportFormat.h"
#include "plan/PlanFile.h"
#include "search/ExportedPlanPrice.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <filesystem>
#include <memory>
#include <optional>
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

    // planExportText() written atomically to `file`, as `tapestry-cli export` writes it;
    // `view` is the picture's (the scope view is drawn as the folded one: Graphviz pictures
    // exist for coarse and folded only); `cluster`, the GPUs the plan runs on, prices the
    // nearest plan a stack's file runs when its stack does not run the plan as is: that
    // price is returned (and heads the file). Throws Error (WriteFailed, file; or
    // planExportText's).
    static std::optional<ExportedPlanPrice> write(ExportFormat format, const std::shared_ptr<const FoldedModel>& folded,
                                                  const PlanDocument& document, GraphViewKind view,
                                                  const std::optional<Cluster>& cluster,
                                                  const std::filesystem::path& file);
    // "Not the plan Tapestry priced: torchtitan does not run it as is. ..." for the status
    // bar: both prices, and whether the file's plan fits the GPU.
    [[nodiscard]] static QString nearestPlanText(ExportFormat format, const ExportedPlanPrice& price);
};

}  // namespace tapestry
