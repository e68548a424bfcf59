// `tapestry-cli export PLAN.json --model MODEL --format FORMAT [--view coarse|folded] [--cluster C] -o FILE`
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/AtomicFile.h"
#include "export/ExportFormat.h"
#include "graph/ModelFingerprint.h"
#include "plan/PlanFile.h"
#include "search/ExportedPlanPrice.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace tapestry::cli {

namespace {

struct ExportOptions {
    std::string plan;
    std::string model;
    std::string format;
    PictureView view = PictureView::Folded;
    HfPlanKeys hfKeys = HfPlanKeys::Model;
    PlanClusterOptions cluster;
    std::string output;
};

int exportPlan(const ExportOptions& options, const char* argv0)
{
    const auto shared = std::make_shared<const FoldedModel>(loadAndFold(options.model));
    const FoldedModel& model = *shared;
    const std::string& planFile = options.plan;
    const PlanDocument document = loadPlanFile(planFile, model.coarse, model.families);
    const std::optional<Cluster> cluster =
        checkPlanFitsCluster(document.plan, document.clusterName, planFile, options.cluster, argv0, "export");
    const std::string fingerprint = modelFingerprint(model.graph());
    if (!document.modelFingerprint.empty() && document.modelFingerprint != fingerprint)
        std::fprintf(stderr, "tapestry-cli export: note: %s was made for another model (fingerprint %s, this model %s)\n",
                     planFile.c_str(), document.modelFingerprint.c_str(), fingerprint.c_str());
    const bool externalData = std::any_of(model.graph().initializers().begin(), model.graph().initializers().end(),
                                          [](const Initializer& i) { return i.location == DataLocation::External; });
    if (options.format == "onnx" && externalData &&
        std::filesystem::absolute(options.output).parent_path() != std::filesystem::absolute(options.model).parent_path())
        std::fprintf(stderr,
                     "tapestry-cli export: note: external-data paths stay relative to the model's folder; "
                     "keep %s beside %s or move its weight files along\n",
                     options.output.c_str(), options.model.c_str());
    const std::optional<ExportFormat> format = exportFormatFromName(options.format);
    if (!format)
        throw Error(ErrorCode::InvalidArgument, {}, "unknown --format '" + options.format + "'");
    const PlanExportText written = planExportText(*format, shared, document, {options.view, options.hfKeys}, cluster);
    // A plan the stack does not run as is: the file holds the nearest plan the stack
    // expresses, and its head says what both cost; so does stderr.
    if (written.price) {
        std::string said = exportedPlanPriceComment(*written.price, options.format.c_str());
        for (std::size_t at = said.find("# "); at != std::string::npos; at = said.find("# ", at))
            said.erase(at, 2);
        std::fputs(("tapestry-cli export: " + said).c_str(), stderr);
    }
    writeFileAtomically(options.output, written.text);
    std::printf("wrote %s (%s)\n", options.output.c_str(), options.format.c_str());
    return 0;
}

}  // namespace

Command declareExport(CLI::App& app, const char* argv0)
{
    auto options = std::make_shared<ExportOptions>();
    std::vector<std::string> formatNames;
    std::string formatType;
    for (const ExportFormat format : exportFormats()) {
        formatNames.emplace_back(exportFormatName(format));
        formatType += (formatType.empty() ? "" : "|") + formatNames.back();
    }
    CLI::App* command = app.add_subcommand(
        "export", "write a plan for a training stack: PyTorch DTensor (parallelize_module, FSDP, activation "
                  "checkpointing, pipeline split points), Hugging Face tp_plan (JSON or Python; keys of the whole or "
                  "the base model), Megatron-LM arguments, a torchtitan config (today's config registry, Python; "
                  "torchtitan-toml: v0.2.x's TOML job config), the ONNX model with "
                  "sharding annotations, or a picture of the graph");
    command->add_option("PLAN", options->plan, "the plan file")->type_name("PLAN.json")->required();
    command->add_option("--model", options->model, "the ONNX model the plan is for")->type_name("MODEL")->required();
    command->add_option("--format", options->format, "what to write")
        ->type_name(formatType)
        ->required()
        ->check(oneOf(formatNames));
    addChoice(*command, "--view", options->view, {{"coarse", PictureView::Coarse}, {"folded", PictureView::Folded}},
              "the graph pictured (default folded)");
    addChoice(*command, "--hf-keys", options->hfKeys, {{"model", HfPlanKeys::Model}, {"base", HfPlanKeys::BaseModel}},
              "tp_plan keys of the whole model or of its base model (default model)");
    addPlanClusterOptions(*command, options->cluster);
    command->add_option("-o,--output", options->output, "the file to write")->type_name("FILE")->required();
    return {command, [options, argv0] { return exportPlan(*options, argv0); }};
}

}  // namespace tapestry::cli
