#pragma once

#include "export/ExportFormat.h"
#include "plan/PlanFile.h"
#include "search/SearchSetup.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// What a training-stack file runs when the plan exported to it is not one its stack runs
// as is: the plan the file describes (read back as import-plan reads it) priced beside
// the plan itself, with the same cluster.
struct ExportedPlanPrice {
    std::vector<std::string> inexpressible;  // stackInexpressible's notes
    double planStepSeconds = 0;
    double planMemoryBytes = 0;
    double fileStepSeconds = 0;
    double fileMemoryBytes = 0;
    double hbmBytes = 0;  // the cluster's GPU memory: whether the file's plan fits
};

// For the Megatron-LM, torchtitan and PyTorch formats and a plan their stack does not run
// as is: `exported` (the file's text) read back and priced on `cluster` beside `document`;
// nothing for other formats, a plan the stack runs as is, or a PyTorch module whose code
// runs other splits than its PLAN_DOCUMENT (pyTorchRunnablePlan). Throws what pricing throws.
[[nodiscard]] std::optional<ExportedPlanPrice> exportedPlanPrice(ExportFormat format,
                                                                 const std::shared_ptr<const FoldedModel>& model,
                                                                 const PlanDocument& document, const Cluster& cluster,
                                                                 const std::string& exported);

// What `export` writes, the CLI and the GUI alike: renderExport's text and, with the
// cluster the plan runs on, Megatron-LM and torchtitan files that say where tensor
// parallelism leaves NVLink, headed for a plan their stack does not run as is by the
// prices of the file's nearest plan and of the plan (exportedPlanPriceComment; `price`
// set). Throws what renderExport and pricing throw.
struct PlanExportText {
    std::string text;
    std::optional<ExportedPlanPrice> price;
};
[[nodiscard]] PlanExportText planExportText(ExportFormat format, const std::shared_ptr<const FoldedModel>& model,
                                            const PlanDocument& document, ExportChoices choices,
                                            const std::optional<Cluster>& cluster);

// "# Not the plan Tapestry priced ..." comment lines saying both prices (and when the
// file's plan does not fit the GPU's memory), for the file's head.
[[nodiscard]] std::string exportedPlanPriceComment(const ExportedPlanPrice& price, const char* stack);

}  // namespace tapestry
