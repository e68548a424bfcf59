// `tapestry-cli import-plan FILE --model MODEL [--mesh AxB] [--cluster C [--nodes N]] -o plan.json`
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "cluster/Cluster.h"
#include "export/PlanFileImport.h"
#include "plan/PlanFile.h"

#include <cstdio>
#include <optional>
#include <memory>

namespace tapestry::cli {

namespace {

struct ImportPlanOptions {
    std::string file;
    std::string model;
    std::string mesh;
    std::string axes;
    PlanClusterOptions cluster;
    std::string output;
};

int importPlan(const ImportPlanOptions& options, const char* argv0)
{
    const FoldedModel model = loadAndFold(options.model);
    const std::string& file = options.file;
    std::optional<Cluster> cluster;  // --cluster: the GPUs a Megatron-LM or torchtitan file runs on
    if (!options.cluster.cluster.empty())
        cluster = loadCluster(options.cluster.cluster, options.cluster.nodes, argv0);
    const std::vector<MeshAxis> mesh =
        options.mesh.empty() ? std::vector<MeshAxis>{} : meshAxesFromOptions(options.mesh, options.axes, Cluster{});
    PlanFileImport imported = [&] {
        try {
            return importPlanFile(file, model, cluster ? cluster->deviceCount() : 0, mesh);
        } catch (const Error& error) {
            if (error.code() == ErrorCode::InvalidMesh && mesh.empty())  // a tp_plan: the option that gives it
                throw Error(error.code(), error.file(), error.message() + ": give --mesh AxB");
            throw;
        }
    }();
    for (const std::string& warning : imported.warnings)
        std::fprintf(stderr, "tapestry-cli import-plan: warning: %s\n", warning.c_str());
    PlanDocument& document = imported.document;
    switch (imported.kind) {
    case PlanFileKind::TrainingStack:
    case PlanFileKind::HfTpPlan:
        // The file's sizes (or --mesh) are checked when --cluster says which GPUs they are for.
        if (cluster)
            document.clusterName = checkPlanFitsCluster(document.plan, {}, file, options.cluster, argv0, "import-plan")->name;
        break;
    case PlanFileKind::Tapestry:
    case PlanFileKind::ShardedOnnx:
        if (!mesh.empty() && mesh != document.plan.mesh)
            throw Error(ErrorCode::InvalidPlan, file, "was made for another mesh than --mesh " + options.mesh);
        (void)checkPlanFitsCluster(document.plan, document.clusterName, file, options.cluster, argv0, "import-plan");
        break;
    }
    validatePlan(document.plan, model.coarse);
    savePlanFile(options.output, document, model.coarse, model.families);
    std::printf("wrote %s (plan '%s' on %zu coarse nodes)\n", options.output.c_str(), document.plan.name.c_str(),
                document.plan.strategies.size());
    return 0;
}

}  // namespace

Command declareImportPlan(CLI::App& app, const char* argv0)
{
    auto options = std::make_shared<ImportPlanOptions>();
    CLI::App* command = app.add_subcommand(
        "import-plan", "read a Tapestry plan, the plan a PyTorch export (export --format pytorch) carries, a "
                       "Hugging Face tp_plan (JSON or .py dict; needs --mesh, tensor parallel on the last axis), "
                       "Megatron-LM arguments or a torchtitan config (Python or v0.2's TOML; both as "
                       "Megatron-LM's layout with their pipeline, context and expert parallelism and workload; "
                       "--cluster gives the GPU count), or the plan an ONNX export carries into a plan file; warns about what the file says that the plan "
                       "reads differently");
    command->add_option("FILE", options->file,
                        "a Tapestry plan (JSON), a PyTorch export (.py), a Hugging Face tp_plan (JSON or .py), "
                        "Megatron-LM arguments, a torchtitan config (.py or .toml) or an ONNX model an ONNX export "
                        "wrote (.onnx)")
        ->required();
    command->add_option("--model", options->model, "the ONNX model the plan is for")->type_name("MODEL")->required();
    command->add_option("--mesh", options->mesh, "the device mesh, e.g. 2x8 (needed for a tp_plan)")
        ->type_name("AxB")
        ->check(meshShape(false));
    command->add_option("--axes", options->axes, "names of the mesh axes (default d; dp,tp; a0,a1,...)")
        ->type_name("NAME,NAME");
    addPlanClusterOptions(*command, options->cluster);
    command->add_option("-o,--output", options->output, "the plan file to write")->type_name("PLAN.json")->required();
    return {command, [options, argv0] { return importPlan(*options, argv0); }};
}

}  // namespace tapestry::cli
