#include "search/ExportedPlanPrice.h"

#include "export/PyTorchPlanExport.h"
#include "export/TrainingStackImport.h"
#include "fold/FoldedModel.h"
#include "search/PlanPricing.h"
#include "target/StackRules.h"

#include <cstdio>

namespace tapestry {

namespace {

std::optional<TrainingStack> stackOf(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Megatron: return TrainingStack::Megatron;
    case ExportFormat::TorchTitan:
    case ExportFormat::TorchTitanToml: return TrainingStack::TorchTitan;
    case ExportFormat::PyTorch: return TrainingStack::PyTorch;
    default: return std::nullopt;
    }
}

std::shared_ptr<const PlanCandidate> priced(const std::shared_ptr<const FoldedModel>& model, const Cluster& cluster,
                                            const PlanDocument& document)
{
    SearchSetup setup;
    setup.cluster = cluster;
    setup.workload = document.workload;
    const PlanPricing pricing(model, setup, planMeshAxes(document.plan));
    return pricing.price(document.plan, PlanCandidate::Role::Opened, document.implementations);
}

}  // namespace

std::optional<ExportedPlanPrice> exportedPlanPrice(ExportFormat format, const std::shared_ptr<const FoldedModel>& model,
                                                   const PlanDocument& document, const Cluster& cluster,
                                                   const std::string& exported)
{
    const std::optional<TrainingStack> stack = stackOf(format);
    if (!stack)
        return std::nullopt;
    ExportedPlanPrice price;
    price.inexpressible = stackInexpressible(*stack, *model, document);
    if (format == ExportFormat::TorchTitanToml && price.inexpressible.empty() &&
        exported.find("Not expressible") != std::string::npos)
        price.inexpressible.push_back("what torchtitan v0.2's TOML cannot say");
    if (price.inexpressible.empty())
        return std::nullopt;
    // The PyTorch module carries the plan it runs when only the workload differs; what
    // else it writes otherwise its code says, not its PLAN_DOCUMENT, so it is not priced.
    if (format == ExportFormat::PyTorch && !stackInexpressible(*stack, *model, pyTorchRunnablePlan(*model, document)).empty())
        return std::nullopt;
    const std::optional<TrainingStackImport> written =
        importTrainingStackPlan(exported, "exported", *model, planDeviceCount(document.plan));
    if (!written)
        return std::nullopt;
    const auto plan = priced(model, cluster, document);
    const auto file = priced(model, cluster, written->document);
    price.planStepSeconds = plan->stepSeconds();
    price.planMemoryBytes = plan->memoryBytes();
    price.fileStepSeconds = file->stepSeconds();
    price.fileMemoryBytes = file->memoryBytes();
    price.hbmBytes = static_cast<double>(cluster.gpu.hbmBytes);
    return price;
}

PlanExportText planExportText(ExportFormat format, const std::shared_ptr<const FoldedModel>& model,
                              const PlanDocument& document, ExportChoices choices, const std::optional<Cluster>& cluster)
{
    // The cluster's nodes, or its NVLink domains where they hold several nodes (GB200 NVL72).
    if (cluster)
        choices.gpusPerNode = cluster->nvlinkDomainSize();
    PlanExportText result{renderExport(format, *model, document, choices), std::nullopt};
    if (cluster) {
        result.price = exportedPlanPrice(format, model, document, *cluster, result.text);
        if (result.price)
            result.text = exportedPlanPriceComment(*result.price, exportFormatName(format)) + result.text;
    }
    return result;
}

std::string exportedPlanPriceComment(const ExportedPlanPrice& price, const char* stack)
{
    char text[512];
    std::snprintf(text, sizeof text,
                  "# Not the plan Tapestry priced: %s does not run it as is (below). This file runs the nearest plan\n"
                  "# %s expresses, priced %.3f ms and %.2f GB per GPU against the plan's %.3f ms and %.2f GB.\n",
                  stack, stack, price.fileStepSeconds * 1e3, price.fileMemoryBytes / 1e9, price.planStepSeconds * 1e3,
                  price.planMemoryBytes / 1e9);
    std::string comment = text;
    // A Megatron-LM ZeRO-1 plan written for torchtitan runs as DDP: it may no longer fit.
    if (price.hbmBytes > 0 && price.fileMemoryBytes > price.hbmBytes) {
        std::snprintf(text, sizeof text, "# The file's plan does not fit in the GPU's %.2f GB.\n", price.hbmBytes / 1e9);
        comment += text;
    }
    return comment;
}

}  // namespace tapestry
