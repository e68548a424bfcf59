// `tapestry-cli evaluate MODEL --cluster NAME --mesh AxB --plan dp|megatron|megatron-sp|cp-ring|cp-ulysses ...`
#include "cli/BreakdownReport.h"
#include "cli/Commands.h"
#include "cli/Formatting.h"
#include "cli/HistoryRecording.h"
#include "history/RecordsOf.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "cluster/PipelineStages.h"
#include "cost/CostModel.h"
#include "cost/WorkloadCheck.h"
#include "graph/ParameterCount.h"
#include "graph/ModelFingerprint.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "search/PlanPricing.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>

namespace tapestry::cli {

namespace {

struct EvaluateOptions {
    std::string model;
    PlanningOptions planning;
    std::string plan = "megatron";
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int virtualStages = 1;
    const CLI::Option* scheduleOption = nullptr;
    const CLI::Option* virtualStagesOption = nullptr;
    bool json = false;
    std::string output;
    HistoryOptions history;
};

// An expert plan by name with the workload of the options, or a plan file with its own
// mesh (--mesh must agree), pipeline and workload, each but the mesh overridden by the
// options that name it.
PlanDocument planFromOptions(const EvaluateOptions& options, const FoldedModel& model, const Cluster& cluster)
{
    const std::string& name = options.plan;
    const PlanningOptions& planning = options.planning;
    if (const auto kind = expertPlanFromName(name)) {
        const PipelinedMesh mesh = splitPipelineAxis(meshAxesFromOptions(planning.mesh, planning.axes, cluster));
        PlanDocument document;
        document.plan = makeExpertPlan(*kind, model.coarse, mesh.stageAxes);
        document.plan.pipeline.stages = mesh.stages;
        document.plan.pipeline.virtualStages = options.virtualStages;
        document.plan.pipeline.schedule =
            options.virtualStages > 1 ? PipelineSchedule::Interleaved : options.schedule;
        document.workload = planning.workload;
        return document;
    }
    if (!name.ends_with(".json"))
        throw Error(ErrorCode::InvalidArgument, {}, "--plan is dp, megatron, megatron-sp, cp-ring, cp-ulysses or a PLAN.json file, not '" + name + "'");
    PlanDocument document = loadPlanFile(name, model.coarse, model.families);
    if (!planning.mesh.empty() && meshAxesFromOptions(planning.mesh, planning.axes, cluster) != planMeshAxes(document.plan))
        throw Error(ErrorCode::InvalidPlan, name, "was made for another mesh than --mesh " + planning.mesh);
    const std::string fingerprint = modelFingerprint(model.graph());
    if (!document.modelFingerprint.empty() && document.modelFingerprint != fingerprint)
        std::fprintf(stderr,
                     "tapestry-cli evaluate: note: %s was made for another model (fingerprint %s, this model %s); "
                     "re-costing it for this one\n",
                     name.c_str(), document.modelFingerprint.c_str(), fingerprint.c_str());
    document.workload = workloadOverPlanFile(document.workload, planning);
    PipelineLayout& pipeline = document.plan.pipeline;
    if (optionGiven(options.virtualStagesOption) && options.virtualStages != pipeline.virtualStages) {
        if (!pipeline.active())
            throw Error(ErrorCode::InvalidArgument, name,
                        "--virtual-stages " + std::to_string(options.virtualStages) + ": the plan has no pipeline");
        pipeline.virtualStages = options.virtualStages;
        pipeline.chunkStarts.clear();  // the file's chunks were for its own virtual stages: split evenly
        pipeline.schedule = options.virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    }
    if (optionGiven(options.scheduleOption))
        pipeline.schedule = options.schedule;
    return document;
}

void printText(const FoldedModel& model, const Cluster& cluster, const PlanPricing& pricing, const CostModel& costs,
               const PlanCandidate& priced)
{
    const Plan& plan = priced.plan;
    const PlanEvaluation& evaluation = priced.evaluation;
    const DeviceMesh& mesh = pricing.mesh();  // one pipeline stage's
    std::vector<std::string> axisNames;
    for (const MeshAxis& axis : mesh.axes())
        axisNames.push_back(axis.name);
    std::printf("model      %s: %zu ops, %zu coarse nodes, %s parameters\n", model.graph().info().sourcePath.c_str(),
                model.graph().opCount(), model.coarse.nodes.size(),
                humanCount(countParameters(model.graph()).parameters).c_str());
    // Axis groups span NVLink domains, which are nodes except on multi-node NVLink (GB200 NVL72).
    const bool multiNodeDomains = cluster.gpusPerNvlinkDomain > cluster.gpusPerNode;
    std::printf("cluster    %s: %d x %d %s%s\n", cluster.name.c_str(), cluster.nodes, cluster.gpusPerNode,
                cluster.gpu.name.c_str(),
                multiNodeDomains ? (", NVLink domains of " + std::to_string(cluster.gpusPerNvlinkDomain) + " GPUs").c_str()
                                 : "");
    std::printf("mesh       %s\n", pricing.meshText().c_str());
    for (std::size_t a = 0; a < mesh.axisCount(); ++a) {
        const AxisGroup& g = mesh.group(a);
        std::printf("           axis %-4s n = %d over %d %s x %d GPU(s): %s\n", mesh.axis(a).name.c_str(), g.size,
                    g.nodes, multiNodeDomains ? "NVLink domain(s)" : "node(s)", g.gpusPerNode, groupSpanName(g.span));
    }
    std::printf("workload   %s\n", describeWorkload(costs, plan).c_str());
    if (priced.implementations == TrainingStack::Any)
        std::printf("plan       %s\n\n", plan.name.c_str());
    else
        std::printf("plan       %s, priced with %s's implementations\n\n", plan.name.c_str(),
                    trainingStackName(priced.implementations));
    printBreakdown(evaluation.total, axisNames, evaluation.hbmBytes);
    std::printf("throughput                 %s\n",
                describeThroughput(costs, model.coarse, cluster.gpu.peakFlopsPerSecond,
                                   evaluation.total.time.stepSeconds()).c_str());
    printStages(evaluation, plan.pipeline);

    if (!model.families.families.empty()) {
        std::printf("\nby family (all instances)            step ms   compute ms      comm ms   memory GB\n");
        for (const Family& family : model.families.families) {
            const CostBreakdown& f = evaluation.perFamily[family.id.index()];
            std::printf("  %-28s x%-4zu %10.3f %12.3f %12.3f %11.2f\n", family.name.c_str(), family.multiplicity(),
                        f.time.stepSeconds() * 1e3, f.time.computeSeconds * 1e3, f.time.communicationSeconds() * 1e3,
                        f.memory.total() / 1e9);
        }
    }
    std::vector<std::size_t> order(model.coarse.nodes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return evaluation.perNode[a].time.stepSeconds() > evaluation.perNode[b].time.stepSeconds();
    });
    std::printf("\ncostliest coarse nodes                                  split        step ms      comm ms\n");
    for (std::size_t i = 0; i < std::min<std::size_t>(10, order.size()); ++i) {
        const CoarseNode& node = model.coarse.nodes[order[i]];
        std::string split;
        for (const AxisSplit s : plan.strategies[order[i]].axes)
            split += std::string(split.empty() ? "" : ",") + axisSplitName(s);
        const CostBreakdown& n = evaluation.perNode[order[i]];
        std::printf("  %-52s %-12s %10.3f %12.3f\n", node.name.c_str(), split.c_str(), n.time.stepSeconds() * 1e3,
                    n.time.communicationSeconds() * 1e3);
    }
}

void printJson(const FoldedModel& model, const PlanPricing& pricing, const CostModel& costs,
               const PlanCandidate& priced)
{
    const Plan& plan = priced.plan;
    const PlanEvaluation& evaluation = priced.evaluation;
    std::vector<std::string> axisNames;
    for (const MeshAxis& axis : pricing.mesh().axes())
        axisNames.push_back(axis.name);
    JsonWriter json;
    json.beginObject();
    json.key("model").value(model.graph().info().sourcePath);
    json.key("mesh").value(pricing.meshText());
    json.key("batch").value(costs.shapes().batch());
    json.key("sequence").value(costs.shapes().sequence());
    json.key("plan").value(plan.name);
    json.key("implementations").value(trainingStackName(priced.implementations));
    json.key("hbm_bytes").value(evaluation.hbmBytes);
    json.key("fits_in_memory").value(evaluation.fitsInMemory());
    json.key("total");
    writeBreakdownJson(json, evaluation.total, axisNames);
    json.key("families").beginArray();
    for (const Family& family : model.families.families) {
        json.beginObject().key("name").value(family.name);
        json.key("multiplicity").value(static_cast<std::uint64_t>(family.multiplicity()));
        json.key("breakdown");
        writeBreakdownJson(json, evaluation.perFamily[family.id.index()], axisNames);
        json.endObject();
    }
    json.endArray();
    json.key("nodes").beginArray();
    for (const CoarseNode& node : model.coarse.nodes) {
        json.beginObject().key("name").value(node.name).key("kind").value(coarseNodeKindName(node.kind));
        json.key("split").beginArray();
        for (const AxisSplit s : plan.strategy(node.id).axes)
            json.value(axisSplitName(s));
        json.endArray();
        json.key("breakdown");
        writeBreakdownJson(json, evaluation.perNode[node.id.index()], axisNames);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    std::fputs(json.text().c_str(), stdout);
}

int evaluate(const EvaluateOptions& options, const char* argv0)
{
    const auto model = std::make_shared<const FoldedModel>(loadAndFold(options.model));
    const Cluster cluster = clusterFromOptions(options.planning, argv0);
    const PlanDocument chosen = planFromOptions(options, *model, cluster);
    const Plan& plan = chosen.plan;
    const bool planFile = options.plan.ends_with(".json");
    // A plan file's mesh that does not fit the cluster: say which file it came from.
    try {
        (void)DeviceMesh(planMeshAxes(plan), cluster);
    } catch (Error& error) {
        if (planFile)
            error.addContext("using the mesh of " + options.plan);
        throw;
    }
    SearchSetup setup;
    setup.cluster = cluster;
    setup.workload = chosen.workload;
    const PlanPricing pricing(model, setup, planMeshAxes(plan));
    const CostModel& costs = pricing.costs();
    checkPlanningWorkload(chosen.workload, workloadDegrees(costs, *model, plan), options.planning,
                          planFile ? options.plan : std::string());
    const std::shared_ptr<const PlanCandidate> priced =
        pricing.price(plan, PlanCandidate::Role::Opened, chosen.implementations);
    PlanDocument document = pricing.document(*priced);
    // The plan file says which workload it was priced for, also when the model or the
    // defaults chose its batch and sequence.
    document.workload = costs.workload();
    HistoryRecording history(options.history, *model, cluster, {"evaluate", options.plan, document.workload, {}, {}});
    if (!options.output.empty())
        savePlanFile(options.output, document, model->coarse, model->families);
    history.finish(RunStatus::Finished, {}, [&] {
        return std::vector<PlanRecord>{planRecordOf(document, model->coarse, model->families)};
    });
    if (options.json)
        printJson(*model, pricing, costs, *priced);
    else
        printText(*model, cluster, pricing, costs, *priced);
    return 0;
}

}  // namespace

Command declareEvaluate(CLI::App& app, const char* argv0)
{
    auto options = std::make_shared<EvaluateOptions>();
    CLI::App* command = app.add_subcommand(
        "evaluate", "price a plan for one training step: time per device by compute, collective, mesh axis and link "
                    "class; memory by category");
    command->add_option("MODEL", options->model, "the ONNX model")->required();
    addPlanningOptions(*command, options->planning, false);
    command->add_option("--plan", options->plan,
                        "an expert plan or a plan file, priced with the workload it stores: each workload option "
                        "given replaces only what it names (default megatron)")
        ->type_name("dp|megatron|megatron-sp|cp-ring|cp-ulysses|PLAN.json");
    options->scheduleOption = addChoice(*command, "--schedule", options->schedule,
              {{"gpipe", PipelineSchedule::GPipe}, {"1f1b", PipelineSchedule::OneFOneB},
               {"interleaved", PipelineSchedule::Interleaved}},
              "the pipeline schedule of an expert plan on a mesh with a pp axis, or of a plan file's "
              "pipeline (default 1f1b; a plan file's own)");
    options->virtualStagesOption = command->add_option("--virtual-stages", options->virtualStages,
                        "chunks of blocks per pipeline stage (interleaved schedule; default 1; a plan file's own)")
        ->type_name("V")
        ->check(wholeNumber(1, 64));
    command->add_flag("--json", options->json, "print JSON");
    command->add_option("-o,--output", options->output, "write the priced plan")->type_name("PLAN.json");
    addHistoryOptions(*command, options->history, true);
    return {command, [options, argv0] { return evaluate(*options, argv0); }};
}

}  // namespace tapestry::cli
