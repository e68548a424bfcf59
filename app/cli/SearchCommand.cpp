// `tapestry-cli search MODEL --cluster NAME --mesh AxB|auto [--pin NODE=SPLITS ...] ...`
// `--emit-iopddl FILE` writes the problem the search solved in the IOPDDL format: the
// folded TAP problem, or with --baseline the whole-graph baseline's (one mesh only).
#include "cli/BreakdownReport.h"
#include "cli/Commands.h"
#include "cli/Formatting.h"
#include "cli/HistoryRecording.h"
#include "history/RecordsOf.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "cost/CostModel.h"
#include "graph/ModelFingerprint.h"
#include "iopddl/IopddlWriter.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "search/PlanSearch.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

namespace tapestry::cli {

namespace {

struct SearchCommandOptions {
    std::string model;
    PlanningOptions planning;
    std::vector<std::string> pins;
    double memoryLimitGb = 0;  // 0: the GPU's memory
    bool baseline = false;
    double timeLimitSeconds = 0;  // 0: the search's default
    bool json = false;
    std::string output;
    std::string emitIopddl;
    HistoryOptions history;
};

struct MeshRun {
    std::vector<MeshAxis> axes;
    SearchResult result;
    double megatronStepSeconds = 0;
    std::optional<SearchResult> baseline;  // the whole-graph search, with --baseline
};

// One line comparing the whole-graph baseline with the TAP search on one mesh.
std::string baselineReport(const MeshRun& run, const Cluster& cluster)
{
    const SearchResult& whole = *run.baseline;
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s: whole-graph baseline %s in %.3f s (%zu decisions, a solver problem of %zu nodes, %zu after "
                  "reduction), TAP in %.3f s: %.1fx faster; TAP plan %.4f ms vs baseline %.4f ms (bound %.4f ms)\n",
                  DeviceMesh(run.axes, cluster).toString().c_str(), ilpStatusName(whole.statistics.status),
                  whole.statistics.totalSeconds, whole.statistics.decisionGroups, whole.statistics.problemNodes,
                  whole.statistics.reducedNodes, run.result.statistics.totalSeconds,
                  whole.statistics.totalSeconds / run.result.statistics.totalSeconds,
                  run.result.best ? run.result.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                  whole.best ? whole.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                  whole.statistics.boundSeconds * 1e3);
    return text;
}

// Writes the problem that `options` poses in the IOPDDL format and says on stderr what
// the plan the search found costs in it, for comparing solvers on the same problem.
void emitIopddl(const std::string& file, const CostModel& costs, const FoldedModel& model,
                const SearchOptions& options, const std::optional<SearchCandidate>& found)
{
    const ShardingProblemEncoding encoding = encodeSearchProblem(costs, model.coarse, model.families, options);
    ShardingProblem problem = encoding.problem();
    const char* kind = options.mode == SearchMode::Tap ? "TAP" : "whole-graph";
    problem.name = std::string("tapestry ") + kind + " search on " + costs.mesh().toString();
    writeIopddlFile(problem, file);
    std::fprintf(stderr, "wrote the %s problem to %s: %zu nodes, %zu edges, costs in ns, usages in bytes\n", kind,
                 file.c_str(), problem.nodes.size(), problem.edges.size());
    if (found) {
        const SolutionEvaluation priced = evaluateSolution(problem, encoding.assignmentOf(found->plan));
        std::fprintf(stderr, "the plan found costs %s there%s\n", costToString(priced.cost).c_str(),
                     priced.feasible ? "" : " (over its usage limit)");
    }
}

std::string splitsOf(const NodeStrategy& strategy)
{
    std::string text;
    for (const AxisSplit split : strategy.axes)
        text += std::string(text.empty() ? "" : ",") + axisSplitName(split);
    return text;
}

void printCandidate(const char* label, const SearchCandidate& candidate)
{
    const CostBreakdown& t = candidate.evaluation.total;
    std::printf("  %-22s step %10.3f ms  compute %10.3f ms  comm %10.3f ms  memory %7.2f GB\n", label,
                t.time.stepSeconds() * 1e3, t.time.computeSeconds * 1e3, t.time.communicationSeconds() * 1e3,
                t.memory.total() / 1e9);
}

int search(const SearchCommandOptions& commandOptions, const char* argv0)
{
    const FoldedModel model = loadAndFold(commandOptions.model);
    const PlanningOptions& planning = commandOptions.planning;
    const Cluster cluster = clusterFromOptions(planning, argv0);
    const Workload& workload = planning.workload;

    SearchOptions options;
    for (const std::string& pin : commandOptions.pins)
        options.pins.push_back(parsePin(pin));
    if (commandOptions.memoryLimitGb > 0)
        options.memoryLimitBytes = commandOptions.memoryLimitGb * 1e9;
    if (commandOptions.timeLimitSeconds > 0)
        options.timeLimitSeconds = commandOptions.timeLimitSeconds;

    HistoryRecording history(commandOptions.history, model, cluster,
                             {"search", "tap", workload, commandOptions.pins, options.memoryLimitBytes});
    std::vector<std::vector<MeshAxis>> meshes;
    if (planning.mesh == "auto") {
        for (const std::vector<int>& shape : meshShapes(cluster)) {
            std::vector<MeshAxis> axes;
            for (std::size_t i = 0; i < shape.size(); ++i)
                axes.push_back({shape.size() == 1 ? "d" : (i == 0 ? "dp" : "tp"), shape[i]});
            meshes.push_back(std::move(axes));
        }
    } else {
        meshes.push_back(meshAxesFromOptions(planning.mesh, planning.axes, cluster));
    }
    const std::optional<std::string> emitFile =
        commandOptions.emitIopddl.empty() ? std::nullopt : std::optional(commandOptions.emitIopddl);
    if (emitFile && meshes.size() != 1)
        throw Error(ErrorCode::InvalidArgument, {}, "--emit-iopddl writes one mesh's problem: give --mesh AxB, not auto");
    // Before searching, so that a mistyped folder does not cost the search's result.
    if (emitFile) {
        const std::filesystem::path folder = std::filesystem::absolute(*emitFile).parent_path();
        if (!std::filesystem::is_directory(folder))
            throw Error(ErrorCode::WriteFailed, *emitFile, "its folder " + folder.string() + " does not exist");
    }

    auto searchMesh = [&](const std::vector<MeshAxis>& axes, bool verbose) {
        const DeviceMesh mesh(axes, cluster);
        const CostModel costs(model.graph(), model.coarse, model.families, cluster, mesh, workload);
        MeshRun run;
        run.axes = axes;
        std::fprintf(stderr, "searching %s ...\n", mesh.toString().c_str());
        SearchCallbacks callbacks;
        if (verbose) {
            callbacks.progress = [](std::string_view phase, double fraction) {
                std::fprintf(stderr, "  %3.0f %% %.*s\n", fraction * 100, static_cast<int>(phase.size()), phase.data());
            };
        }
        run.result = searchPlan(costs, model.coarse, model.families, options, callbacks);
        run.megatronStepSeconds =
            costs.evaluate(makeExpertPlan(ExpertPlanKind::Megatron, model.coarse, axes)).total.time.stepSeconds();
        if (commandOptions.baseline) {
            SearchOptions baseline = options;
            baseline.mode = SearchMode::WholeGraph;
            baseline.alternatives = 0;
            run.baseline = searchPlan(costs, model.coarse, model.families, baseline);
            if (emitFile)
                emitIopddl(*emitFile, costs, model, baseline, run.baseline->best);
        } else if (emitFile) {
            emitIopddl(*emitFile, costs, model, options, run.result.best);
        }
        return run;
    };

    // Several meshes (--mesh auto) are independent searches: one per core.
    std::vector<MeshRun> runs(meshes.size());
    if (meshes.size() == 1) {
        runs[0] = searchMesh(meshes[0], true);
    } else {
        std::atomic<std::size_t> next{0};
        std::vector<std::exception_ptr> failures(meshes.size());
        auto worker = [&] {
            for (std::size_t i = next++; i < meshes.size(); i = next++) {
                try {
                    runs[i] = searchMesh(meshes[i], false);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
            }
        };
        std::vector<std::thread> workers;
        const unsigned cores = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
        for (unsigned t = 0; t < cores; ++t)
            workers.emplace_back(worker);
        for (std::thread& thread : workers)
            thread.join();
        for (const std::exception_ptr& failure : failures) {
            if (failure)
                std::rethrow_exception(failure);
        }
    }
    // With --json, stdout holds the JSON only; the baseline is part of it.
    if (!commandOptions.json) {
        for (const MeshRun& run : runs) {
            if (run.baseline)
                std::fputs(baselineReport(run, cluster).c_str(), stdout);
        }
    }

    // The fastest plan over all meshes that fits.
    const MeshRun* chosen = nullptr;
    for (const MeshRun& run : runs) {
        if (!run.result.best)
            continue;
        auto better = [&](const MeshRun& a, const MeshRun& b) {
            if (a.result.fitsInMemory != b.result.fitsInMemory)
                return a.result.fitsInMemory;
            return a.result.best->evaluation.total.time.stepSeconds() < b.result.best->evaluation.total.time.stepSeconds();
        };
        if (!chosen || better(run, *chosen))
            chosen = &run;
    }
    if (!chosen)
        throw Error(ErrorCode::InvalidArgument, {}, runs.empty() ? "no mesh to search" : runs.front().result.message);

    const SearchCandidate& best = *chosen->result.best;
    auto documentOf = [&](const SearchCandidate& candidate) {
        PlanDocument document;
        document.plan = candidate.plan;
        document.modelFingerprint = modelFingerprint(model.graph());
        document.clusterName = cluster.name;
        document.workload = workload;
        const CostBreakdown& t = candidate.evaluation.total;
        document.cost = PlanCostSummary{t.time.stepSeconds(), t.time.computeSeconds, t.time.communicationSeconds(),
                                        t.memory.total(), candidate.evaluation.hbmBytes};
        return document;
    };
    if (!commandOptions.output.empty())
        savePlanFile(commandOptions.output, documentOf(best), model.coarse, model.families);
    std::vector<PlanRecord> recorded{planRecordOf(documentOf(best), model.coarse, model.families)};
    for (const SearchCandidate& alternative : chosen->result.alternatives)
        recorded.push_back(planRecordOf(documentOf(alternative), model.coarse, model.families));
    for (std::size_t i = 0; i < recorded.size(); ++i) {
        if (recorded[i].name.empty())
            recorded[i].name = i == 0 ? "best" : "alternative " + std::to_string(i);
    }
    history.finish(chosen->result.cancelled ? RunStatus::Cancelled : RunStatus::Finished, chosen->result.message,
                   recorded);

    std::vector<std::string> axisNames;
    for (const MeshAxis& axis : chosen->axes)
        axisNames.push_back(axis.name);
    if (commandOptions.json) {
        JsonWriter json;
        json.beginObject();
        json.key("meshes").beginArray();
        for (const MeshRun& run : runs) {
            json.beginObject();
            json.key("mesh").value(DeviceMesh(run.axes, cluster).toString());
            json.key("fits_in_memory").value(run.result.fitsInMemory);
            json.key("message").value(run.result.message);
            json.key("step_seconds").value(run.result.best ? run.result.best->evaluation.total.time.stepSeconds() : -1.0);
            json.key("megatron_step_seconds").value(run.megatronStepSeconds);
            const SearchStatistics& s = run.result.statistics;
            json.key("statistics").beginObject();
            json.key("decisions").value(static_cast<std::uint64_t>(s.decisionGroups));
            json.key("ilp_columns").value(static_cast<std::uint64_t>(s.ilpColumns));
            json.key("branch_nodes").value(static_cast<std::int64_t>(s.branchNodes));
            json.key("status").value(ilpStatusName(s.status));
            json.key("seconds").value(s.totalSeconds);
            json.endObject();
            if (run.baseline) {
                const SearchStatistics& b = run.baseline->statistics;
                json.key("baseline").beginObject();
                json.key("status").value(ilpStatusName(b.status));
                json.key("seconds").value(b.totalSeconds);
                json.key("decisions").value(static_cast<std::uint64_t>(b.decisionGroups));
                json.key("problem_nodes").value(static_cast<std::uint64_t>(b.problemNodes));
                json.key("reduced_nodes").value(static_cast<std::uint64_t>(b.reducedNodes));
                json.key("step_seconds")
                    .value(run.baseline->best ? run.baseline->best->evaluation.total.time.stepSeconds() : -1.0);
                json.key("bound_seconds").value(b.boundSeconds);
                json.endObject();
            }
            json.endObject();
        }
        json.endArray();
        json.key("best");
        writeBreakdownJson(json, best.evaluation.total, axisNames);
        json.key("strategies").beginObject();
        for (const CoarseNode& node : model.coarse.nodes)
            json.key(node.name).value(splitsOf(best.plan.strategy(node.id)));
        json.endObject();
        json.endObject();
        std::fputs(json.text().c_str(), stdout);
        return 0;
    }

    for (const MeshRun& run : runs) {
        const SearchStatistics& s = run.result.statistics;
        std::printf("%-16s %s: %zu decisions (%zu anchors) for %zu coarse nodes, %zu solves, %d branch nodes, "
                    "%.3f s; step %.3f ms (Megatron %.3f ms)%s\n",
                    DeviceMesh(run.axes, cluster).toString().c_str(), ilpStatusName(s.status), s.decisionGroups,
                    s.anchorGroups, s.coarseNodes, s.solves, s.branchNodes, s.totalSeconds,
                    run.result.best ? run.result.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                    run.megatronStepSeconds * 1e3, run.result.fitsInMemory ? "" : "  (does not fit)");
    }
    std::printf("\nbest plan on %s%s\n", DeviceMesh(chosen->axes, cluster).toString().c_str(),
                chosen->result.message.empty() ? "" : (": " + chosen->result.message).c_str());
    printCandidate("best", best);
    for (std::size_t i = 0; i < chosen->result.alternatives.size(); ++i) {
        const std::string label = "alternative " + std::to_string(i + 1);
        printCandidate(label.c_str(), chosen->result.alternatives[i]);
    }
    std::printf("\n");
    printBreakdown(best.evaluation.total, axisNames, best.evaluation.hbmBytes);
    std::printf("\nstrategies of the unique blocks and the nodes outside them\n");
    std::vector<bool> shown(model.coarse.nodes.size(), false);
    for (const Family& family : model.families.families) {
        if (family.parent.isValid())
            continue;
        std::printf("  %s  x%zu\n", family.name.c_str(), family.multiplicity());
        for (const CoarseNodeId id : family.representative().nodes) {
            const CoarseNode& node = model.coarse.node(id);
            if (isAnchorKind(node.kind))
                std::printf("    %-50s %s\n", node.name.c_str(), splitsOf(best.plan.strategy(id)).c_str());
        }
        for (const BlockInstance& instance : family.instances) {
            for (const CoarseNodeId id : instance.nodes)
                shown[id.index()] = true;
        }
    }
    for (const CoarseNode& node : model.coarse.nodes) {
        if (!shown[node.id.index()] && isAnchorKind(node.kind))
            std::printf("  %-52s %s\n", node.name.c_str(), splitsOf(best.plan.strategy(node.id)).c_str());
    }
    return 0;
}

}  // namespace

Command declareSearch(CLI::App& app, const char* argv0)
{
    auto options = std::make_shared<SearchCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "search", "find the fastest tensor/data-parallel plan that fits (TAP: each unique block searched once); "
                  "--baseline also solves the whole graph for comparison; --emit-iopddl writes the problem solved");
    command->add_option("MODEL", options->model, "the ONNX model")->required();
    addPlanningOptions(*command, options->planning, true);
    command->add_option("--pin", options->pins, "fix a node's splits, e.g. model/layers.#/mlp/up_proj/MatMul=batch,column")
        ->type_name("NODE=SPLITS")
        ->take_all()
        ->expected(1);
    command->add_option("--memory-limit", options->memoryLimitGb, "memory per device in GB (default: the GPU's)")
        ->type_name("GB")
        ->check(positiveNumber(1e6));
    command->add_flag("--baseline", options->baseline, "also solve the whole unfolded graph, for comparison");
    command->add_option("--time-limit", options->timeLimitSeconds, "seconds the search may take")
        ->type_name("S")
        ->check(positiveNumber(kMaxSeconds));
    command->add_flag("--json", options->json, "print JSON");
    command->add_option("-o,--output", options->output, "write the best plan")->type_name("PLAN.json");
    command->add_option("--emit-iopddl", options->emitIopddl, "write the problem solved in the IOPDDL format")
        ->type_name("FILE");
    addHistoryOptions(*command, options->history, true);
    return {command, [options, argv0] { return search(*options, argv0); }};
}

}  // namespace tapestry::cli
