// `tapestry-cli search MODEL --cluster NAME --mesh AxB|auto [--pin NODE=SPLITS ...] ...`
// `--emit-iopddl FILE` writes the problem the search solved in the IOPDDL format: the
// folded TAP problem, or with --baseline the whole-graph baseline's (one mesh only).
#include "cli/BreakdownReport.h"
#include "cli/Commands.h"
#include "cli/Formatting.h"
#include "cli/HistoryRecording.h"
#include "cli/ModelContext.h"
#include "cli/SearchProgressBar.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "cluster/MeshText.h"
#include "cost/CostModel.h"
#include "cost/WorkloadCheck.h"
#include "graph/ModelFingerprint.h"
#include "iopddl/IopddlWriter.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "plan/PlanFile.h"
#include "search/PlanPricing.h"
#include "search/SearchRecords.h"
#include "search/SearchSession.h"
#include "search/SearchWorkloadCheck.h"
#include "target/StackRules.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
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
    std::string target = trainingStackName(kDefaultTrainingStack);
    HistoryOptions history;
};

// One line comparing the whole-graph baseline with the TAP search on one mesh.
std::string baselineReport(const MeshOutcome& mesh)
{
    const SearchResult& tap = *mesh.search;
    const SearchResult& whole = *mesh.baseline;
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s: whole-graph baseline %s in %.3f s (%zu decisions, a solver problem of %zu nodes, %zu after "
                  "reduction), TAP in %.3f s: %.1fx faster; TAP plan %.4f ms vs baseline %.4f ms (bound %.4f ms)\n",
                  mesh.meshText.c_str(), ilpStatusName(whole.statistics.status), whole.statistics.totalSeconds,
                  whole.statistics.decisionGroups, whole.statistics.problemNodes, whole.statistics.reducedNodes,
                  tap.statistics.totalSeconds, whole.statistics.totalSeconds / tap.statistics.totalSeconds,
                  tap.best ? tap.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                  whole.best ? whole.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                  whole.statistics.boundSeconds * 1e3);
    return text;
}

double megatronStepSeconds(const MeshOutcome& mesh)
{
    for (const std::shared_ptr<const PlanCandidate>& expert : mesh.experts) {
        if (expertPlanFromName(expert->plan.name) == ExpertPlanKind::Megatron)
            return expert->stepSeconds();
    }
    return 0;
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

// "context parallelism (degree 8): without it the best plan on [8, 8] (dp, tp) takes ..."
std::string comparisonReport(const TechniqueComparison& comparison, const PlanCandidate& best, double limitBytes)
{
    const std::string technique = parallelTechniqueName(comparison.technique);
    const std::string head = technique + " (degree " + std::to_string(comparison.degree) + "): ";
    if (!comparison.without)
        return head + "the search without it found no plan";
    const PlanCandidate& without = *comparison.without;
    char text[512];
    if (without.memoryBytes() > limitBytes) {
        std::snprintf(text, sizeof text,
                      "without it the plan closest to fitting on %s needs %.2f GB per device, over the %.2f GB "
                      "limit (step %.3f ms)",
                      without.meshText.c_str(), without.memoryBytes() / 1e9, limitBytes / 1e9,
                      without.stepSeconds() * 1e3);
    } else {
        std::snprintf(text, sizeof text,
                      "without it the best plan on %s (%s) fits in %.2f GB but takes %.3f ms, %+.1f %% against %.3f ms",
                      without.meshText.c_str(), without.plan.name.c_str(), without.memoryBytes() / 1e9,
                      without.stepSeconds() * 1e3, (without.stepSeconds() / best.stepSeconds() - 1) * 100,
                      best.stepSeconds() * 1e3);
    }
    return head + text;
}

// "groups of 12 GPUs (nodes of 4, NVLink domains of 72): kept inside a node, the best
// plan on ... takes ...", or "groups of 4 GPUs (...): with a group wider than a node, the
// best plan on ... (its widest group 8 GPUs) takes ..."
std::string widthReport(const GroupWidthComparison& comparison, const Cluster& cluster, const PlanCandidate& best,
                        double limitBytes)
{
    const bool beyond = comparison.reachesBeyondNode();
    const std::string groups = comparison.width > 1 ? "groups of " + std::to_string(comparison.width) + " GPUs"
                                                    : std::string("no tensor-, context- or expert-parallel groups");
    const std::string head = groups + " (nodes of " + std::to_string(comparison.nodeGpus) + ", NVLink domains of " +
                             std::to_string(cluster.nvlinkDomainSize()) + "): ";
    const std::shared_ptr<const PlanCandidate>& other = beyond ? comparison.insideNode : comparison.beyondNode;
    if (!other)
        return head + (beyond ? "no plan keeping them inside a node was found"
                              : "no plan with a group wider than a node was found");
    const std::string how = beyond ? "kept inside a node, the best plan on " + other->meshText + " (" +
                                         other->plan.name + ")"
                                   : "with a group wider than a node, the best plan on " + other->meshText + " (" +
                                         other->plan.name + ", its widest group " +
                                         std::to_string(widestGroup(other->plan)) + " GPUs)";
    char text[256];
    std::snprintf(text, sizeof text, " %s %.2f GB and takes %.3f ms, %+.1f %% against %.3f ms",
                  other->memoryBytes() > limitBytes ? "does not fit in" : "fits in", other->memoryBytes() / 1e9,
                  other->stepSeconds() * 1e3, (other->stepSeconds() / best.stepSeconds() - 1) * 100,
                  best.stepSeconds() * 1e3);
    return head + how + text;
}

void printCandidate(const char* label, const PlanEvaluation& evaluation)
{
    const CostBreakdown& t = evaluation.total;
    std::printf("  %-22s step %10.3f ms  compute %10.3f ms  comm %10.3f ms  memory %7.2f GB\n", label,
                t.time.stepSeconds() * 1e3, t.time.computeSeconds * 1e3, t.time.communicationSeconds() * 1e3,
                t.memory.total() / 1e9);
}

int search(const SearchCommandOptions& commandOptions, const char* argv0)
{
    // --time-limit is a wall for the whole command, as solve's is.
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [started] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const auto model = std::make_shared<const FoldedModel>(loadAndFold(commandOptions.model));
    // The CPU of the search and its report alone (every thread), which --json gives: reading
    // a model grows with its depth, the search need not.
    const std::clock_t searchStarted = std::clock();
    if (commandOptions.timeLimitSeconds > 0 && elapsed() >= commandOptions.timeLimitSeconds)
        throw Error(ErrorCode::InvalidArgument, commandOptions.model,
                    "reading and folding it took " + std::to_string(static_cast<long long>(std::ceil(elapsed()))) +
                        " s, all of --time-limit: give more");
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
    options.stack = *trainingStackFromName(commandOptions.target);
    if (!options.pins.empty() && options.stack != TrainingStack::Any)
        throw Error(ErrorCode::InvalidArgument, {},
                    std::string("--pin needs --target any: ") + trainingStackName(options.stack) +
                        " lays out every layer itself, so single nodes cannot be pinned");
    if (options.stack != TrainingStack::Any && (commandOptions.baseline || !commandOptions.emitIopddl.empty()))
        throw Error(ErrorCode::InvalidArgument, {},
                    "--baseline and --emit-iopddl compare and write the per-node search: give --target any");

    SearchSetup setup;
    setup.cluster = cluster;
    if (planning.mesh != "auto")
        setup.mesh = meshAxesFromOptions(planning.mesh, planning.axes, cluster);
    setup.workload = workload;
    setup.options = options;
    setup.chooseRecomputation = !planning.recomputationGiven();
    setup.chooseZeroStage = !planning.zeroStageGiven();
    setup.wholeGraphBaseline = commandOptions.baseline;
    checkSearchWorkload(*model, setup, commandLineFieldNames());
    HistoryRecording history(commandOptions.history, *model, cluster, searchRunSettings(setup));
    const std::optional<std::string> emitFile =
        commandOptions.emitIopddl.empty() ? std::nullopt : std::optional(commandOptions.emitIopddl);
    if (emitFile && setup.mesh.empty())
        throw Error(ErrorCode::InvalidArgument, {}, "--emit-iopddl writes one mesh's problem: give --mesh AxB, not auto");
    // Before searching, so that a mistyped folder does not cost the search's result.
    if (emitFile) {
        const std::filesystem::path folder = std::filesystem::absolute(*emitFile).parent_path();
        if (!std::filesystem::is_directory(folder))
            throw Error(ErrorCode::WriteFailed, *emitFile, "its folder " + folder.string() + " does not exist");
    }

    const std::vector<std::vector<MeshAxis>> meshes = setup.meshes();
    SearchSessionCallbacks callbacks;
    // On a terminal a bar under the lines says how many meshes are left and the best plan
    // so far; elsewhere (a file, a pipe) the lines only, as they always were.
    std::optional<SearchProgressBar> bar;
    if (SearchProgressBar::isTerminal(stderr))
        bar.emplace(stderr);
    // The report after the search prices the chosen plan once more, which takes about what
    // the first mesh took to bind the model's shapes and price its expert plans (seconds
    // for thousands of layers): the search stops that much before --time-limit so that
    // the whole command keeps to it.
    std::optional<double> firstMeshStarted;  // the callbacks come one at a time
    std::atomic<double> reportSeconds{0};
    callbacks.progress = [&](const SearchProgress& progress) {
        if (progress.phase == SearchPhase::ExpertPlans && !firstMeshStarted)
            firstMeshStarted = elapsed();
        else if (progress.phase != SearchPhase::ExpertPlans && firstMeshStarted && reportSeconds == 0)
            reportSeconds = elapsed() - *firstMeshStarted;
        if (progress.phase == SearchPhase::ExpertPlans) {
            const std::string line = "searching " + DeviceMesh(meshes[progress.mesh], cluster).toString() + " ...";
            if (bar)
                bar->line(line);
            else
                std::fprintf(stderr, "%s\n", line.c_str());
        }
        if (bar)
            bar->setFraction(progress.fraction);
        else if (progress.phase != SearchPhase::ExpertPlans && meshes.size() == 1 &&
                 progress.phase != SearchPhase::Baseline)
            std::fprintf(stderr, "  %3.0f %% %s\n", progress.fraction * 100, searchPhaseName(progress.phase));
    };
    if (bar) {
        callbacks.changed = [&](const std::shared_ptr<const SearchOutcome>& found) {
            std::string best;
            if (const std::shared_ptr<const PlanCandidate> plan = found->best()) {
                char text[64];
                std::snprintf(text, sizeof text, "%.1f ms on ", plan->stepSeconds() * 1e3);
                best = text + meshText(planMeshAxes(plan->plan)) +
                       (plan->memoryBytes() <= found->memoryLimitBytes ? "" : " (does not fit)");
            }
            bar->setSearched(found->meshesSearched(), found->meshes.size(), best);
        };
        // Each best-so-far snapshot prices its plan: once a second is enough for the eye.
        callbacks.bestSoFarInterval = std::chrono::seconds(1);
    }
    const double wall = commandOptions.timeLimitSeconds;
    bool timedOut = false;
    if (wall > 0)
        callbacks.cancelled = [&] { return timedOut = timedOut || elapsed() >= wall - reportSeconds; };
    // Several meshes (--mesh auto) are independent searches: one per core.
    const unsigned cores = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
    SearchSession session(model, setup);
    const std::shared_ptr<const SearchOutcome> outcome = session.run(callbacks, cores);
    bar.reset();
    if (timedOut) {
        std::size_t searched = 0;
        for (const MeshOutcome& mesh : outcome->meshes)
            searched += mesh.search && !mesh.search->cancelled ? 1 : 0;
        char stopped[200];
        if (searched == outcome->meshes.size() && outcome->best()) {
            // The plan is the search's own; only what it is compared with afterwards was cut.
            std::snprintf(stopped, sizeof stopped,
                          "every mesh was searched to the end; the time limit of %g s (%.1f s) cut short the "
                          "alternatives and comparisons made after the search",
                          wall, elapsed());
            std::fprintf(stderr, "tapestry-cli search: note: %s\n", stopped);
        } else {
            std::snprintf(stopped, sizeof stopped,
                          "stopped at the time limit of %g s (%.1f s): %zu of %zu mesh(es) searched to the end", wall,
                          elapsed(), searched, meshes.size());
            if (!outcome->best())
                throw Error(ErrorCode::InfeasibleProblem, commandOptions.model,
                            std::string(stopped) + ", no plan found yet: give more");
            std::fprintf(stderr, "tapestry-cli search: note: %s; the best plan found so far follows\n", stopped);
        }
    }

    if (emitFile) {
        const MeshOutcome& mesh = outcome->meshes.front();
        SearchSetup searched = setup;  // with the techniques the mesh's search used
        searched.workload = mesh.workload;
        const std::unique_ptr<PlanPricing> pricing = session.pricing(searched, mesh.axes);
        SearchOptions emitted = options;
        if (setup.wholeGraphBaseline) {
            emitted.mode = SearchMode::WholeGraph;
            emitted.alternatives = 0;
        }
        const std::optional<SearchResult>& found = setup.wholeGraphBaseline ? mesh.baseline : mesh.search;
        emitIopddl(*emitFile, pricing->costs(), *model, emitted, found ? found->best : std::nullopt);
    }
    // With --json, stdout holds the JSON only; the baseline is part of it.
    if (!commandOptions.json) {
        for (const MeshOutcome& mesh : outcome->meshes) {
            if (mesh.baseline)
                std::fputs(baselineReport(mesh).c_str(), stdout);
        }
    }

    const std::shared_ptr<const PlanCandidate> chosen = outcome->best();
    if (!chosen)
        throw Error(ErrorCode::InvalidArgument, {},
                    outcome->meshes.empty() || !outcome->meshes.front().search ? "no mesh to search"
                                                                             : outcome->meshes.front().search->message);
    const MeshOutcome& chosenMesh = *outcome->meshOf(*chosen);
    const SearchResult& chosenSearch = *chosenMesh.search;
    // The workload as given, with the techniques the search chose (so that the text
    // still says where batch and sequence come from).
    // On the plan's own mesh: a stack's plan lies on the stack's stage mesh (data,
    // expert, context and tensor axes), which may merge axes of the searched one.
    const std::unique_ptr<PlanPricing> chosenPricingOwner =
        session.pricing(withChosenTechniques(setup, chosen->workload), planMeshAxes(chosen->plan));
    const PlanPricing& chosenPricing = *chosenPricingOwner;
    const std::string workloadText = describeWorkload(chosenPricing.costs(), chosen->plan);
    if (!commandOptions.output.empty())
        savePlanFile(commandOptions.output, chosenPricing.document(*chosen), model->coarse, model->families);
    history.finish(outcome->cancelled ? RunStatus::Cancelled : RunStatus::Finished, outcome->detail,
                   [&] { return searchRecordsOf(*model, setup, *outcome); });

    std::vector<std::string> axisNames;  // of one pipeline stage's mesh, which the breakdown's axes are
    for (const MeshAxis& axis : chosen->plan.mesh)
        axisNames.push_back(axis.name);
    if (commandOptions.json) {
        JsonWriter json;
        json.beginObject();
        json.key("meshes").beginArray();
        for (std::size_t m = 0; m < outcome->meshes.size(); ++m) {
            const MeshOutcome& mesh = outcome->meshes[m];
            if (!mesh.search)
                continue;  // cancelled before this mesh
            const SearchResult& result = *mesh.search;
            const std::shared_ptr<const PlanCandidate> meshBest = outcome->bestOn(m);
            json.beginObject();
            json.key("mesh").value(mesh.meshText);
            json.key("fits_in_memory").value(meshBest && meshBest->memoryBytes() <= outcome->memoryLimitBytes);
            json.key("message").value(result.message);
            json.key("step_seconds").value(meshBest ? meshBest->stepSeconds() : -1.0);
            json.key("megatron_step_seconds").value(megatronStepSeconds(mesh));
            const SearchStatistics& s = result.statistics;
            json.key("statistics").beginObject();
            json.key("decisions").value(static_cast<std::uint64_t>(s.decisionGroups));
            json.key("ilp_columns").value(static_cast<std::uint64_t>(s.ilpColumns));
            json.key("branch_nodes").value(static_cast<std::int64_t>(s.branchNodes));
            json.key("elimination_states").value(static_cast<std::uint64_t>(s.eliminationStates));
            json.key("status").value(ilpStatusName(s.status));
            json.key("seconds").value(s.totalSeconds);
            json.key("grouping_seconds").value(s.groupingSeconds);
            json.key("solve_seconds").value(s.solveSeconds);
            json.key("evaluate_seconds").value(s.evaluateSeconds);
            json.endObject();
            if (mesh.baseline) {
                const SearchStatistics& b = mesh.baseline->statistics;
                json.key("baseline").beginObject();
                json.key("status").value(ilpStatusName(b.status));
                json.key("seconds").value(b.totalSeconds);
                json.key("decisions").value(static_cast<std::uint64_t>(b.decisionGroups));
                json.key("problem_nodes").value(static_cast<std::uint64_t>(b.problemNodes));
                json.key("reduced_nodes").value(static_cast<std::uint64_t>(b.reducedNodes));
                json.key("step_seconds")
                    .value(mesh.baseline->best ? mesh.baseline->best->evaluation.total.time.stepSeconds() : -1.0);
                json.key("bound_seconds").value(b.boundSeconds);
                json.endObject();
            }
            json.endObject();
        }
        json.endArray();
        json.key("best_mesh").value(chosenMesh.meshText);
        json.key("target").value(trainingStackName(options.stack));
        json.key("implementations").value(trainingStackName(chosen->implementations));
        json.key("plan_mesh").value(chosen->meshText);
        json.key("runs_on").beginArray();
        for (const TrainingStack stack : stacksRunning(*model, chosenPricing.document(*chosen)))
            json.value(trainingStackName(stack));
        json.endArray();
        json.key("without_techniques").beginArray();
        for (const TechniqueComparison& comparison : outcome->comparisons) {
            json.beginObject();
            json.key("technique").value(parallelTechniqueName(comparison.technique));
            json.key("degree").value(static_cast<std::int64_t>(comparison.degree));
            json.key("found").value(comparison.without != nullptr);
            if (comparison.without) {
                json.key("plan").value(comparison.without->plan.name);
                json.key("implementations").value(trainingStackName(comparison.without->implementations));
                json.key("mesh").value(comparison.without->meshText);
                json.key("step_seconds").value(comparison.without->stepSeconds());
                json.key("memory_bytes").value(comparison.without->memoryBytes());
                json.key("fits_in_memory").value(comparison.without->memoryBytes() <= outcome->memoryLimitBytes);
            }
            json.endObject();
        }
        json.endArray();
        if (const auto& width = outcome->widthComparison) {
            const bool beyond = width->reachesBeyondNode();
            const std::shared_ptr<const PlanCandidate>& other = beyond ? width->insideNode : width->beyondNode;
            json.key(beyond ? "inside_node" : "beyond_node").beginObject();
            json.key("widest_group").value(static_cast<std::int64_t>(width->width));
            json.key("node_gpus").value(static_cast<std::int64_t>(width->nodeGpus));
            json.key("found").value(other != nullptr);
            if (other) {
                json.key("mesh").value(other->meshText);
                json.key("other_widest_group").value(static_cast<std::int64_t>(widestGroup(other->plan)));
                json.key("step_seconds").value(other->stepSeconds());
                json.key("memory_bytes").value(other->memoryBytes());
                json.key("fits_in_memory").value(other->memoryBytes() <= outcome->memoryLimitBytes);
            }
            json.endObject();
        }
        json.key("workload").value(workloadText);
        json.key("best");
        writeBreakdownJson(json, chosen->evaluation.total, axisNames);
        json.key("strategies").beginObject();
        for (const CoarseNode& node : model->coarse.nodes)
            json.key(node.name).value(splitsOf(chosen->plan.strategy(node.id)));
        json.endObject();
        json.key("search_cpu_seconds").value(static_cast<double>(std::clock() - searchStarted) / CLOCKS_PER_SEC);
        json.endObject();
        std::fputs(json.text().c_str(), stdout);
        return 0;
    }

    std::printf("workload         %s\n", workloadText.c_str());
    for (std::size_t m = 0; m < outcome->meshes.size(); ++m) {
        const MeshOutcome& mesh = outcome->meshes[m];
        if (!mesh.search)
            continue;
        // The mesh's best plan, which may be an expert's or a stack's own plan, not the solve's.
        const std::shared_ptr<const PlanCandidate> meshBest = outcome->bestOn(m);
        const SearchStatistics& s = mesh.search->statistics;
        std::printf("%-16s %s: %zu decisions (%zu anchors) for %zu coarse nodes, %zu solves, %d branch nodes, "
                    "%zu elimination states, %.3f s; step %.3f ms (Megatron %.3f ms)%s\n",
                    mesh.meshText.c_str(), ilpStatusName(s.status), s.decisionGroups, s.anchorGroups, s.coarseNodes,
                    s.solves, s.branchNodes, s.eliminationStates, s.totalSeconds,
                    meshBest ? meshBest->stepSeconds() * 1e3 : 0.0, megatronStepSeconds(mesh) * 1e3,
                    meshBest && meshBest->memoryBytes() <= outcome->memoryLimitBytes ? "" : "  (does not fit)");
    }
    std::printf("\nbest plan on %s%s\n", chosenMesh.meshText.c_str(),
                chosenSearch.message.empty() ? "" : (": " + chosenSearch.message).c_str());
    const TrainingStack implementations = chosen->implementations;
    std::printf("  target %s: %s%s\n", trainingStackName(options.stack),
                implementations != options.stack
                    ? ("priced with " + std::string(trainingStackName(implementations)) + "'s implementations, ").c_str()
                    : "",
                runnableStacksText(stacksRunning(*model, chosenPricing.document(*chosen))).c_str());
    if (chosen->meshText != chosenMesh.meshText)
        std::printf("  laid out on %s as the stack orders its ranks\n", chosen->meshText.c_str());
    printCandidate("best", chosen->evaluation);
    for (std::size_t i = 0; i < chosenSearch.alternatives.size(); ++i) {
        const std::string label = "alternative " + std::to_string(i + 1);
        printCandidate(label.c_str(), chosenSearch.alternatives[i].evaluation);
    }
    for (const TechniqueComparison& comparison : outcome->comparisons)
        std::printf("  why %s\n", comparisonReport(comparison, *chosen, outcome->memoryLimitBytes).c_str());
    if (outcome->widthComparison)
        std::printf("  why %s\n",
                    widthReport(*outcome->widthComparison, cluster, *chosen, outcome->memoryLimitBytes).c_str());
    std::printf("\n");
    printBreakdown(chosen->evaluation.total, axisNames, chosen->evaluation.hbmBytes);
    std::printf("throughput                 %s\n",
                describeThroughput(chosenPricing.costs(), model->coarse, cluster.gpu.peakFlopsPerSecond,
                                   chosen->stepSeconds()).c_str());
    printStages(chosen->evaluation, chosen->plan.pipeline);
    std::printf("\nstrategies of the unique blocks and the nodes outside them\n");
    std::vector<bool> shown(model->coarse.nodes.size(), false);
    for (const Family& family : model->families.families) {
        if (family.parent.isValid())
            continue;
        std::printf("  %s  x%zu\n", family.name.c_str(), family.multiplicity());
        for (const CoarseNodeId id : family.representative().nodes) {
            const CoarseNode& node = model->coarse.node(id);
            if (isAnchorKind(node.kind))
                std::printf("    %-50s %s\n", node.name.c_str(), splitsOf(chosen->plan.strategy(id)).c_str());
        }
        for (const BlockInstance& instance : family.instances) {
            for (const CoarseNodeId id : instance.nodes)
                shown[id.index()] = true;
        }
    }
    for (const CoarseNode& node : model->coarse.nodes) {
        if (!shown[node.id.index()] && isAnchorKind(node.kind))
            std::printf("  %-52s %s\n", node.name.c_str(), splitsOf(chosen->plan.strategy(node.id)).c_str());
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
    command->add_option("--time-limit", options->timeLimitSeconds,
                        "wall-clock seconds the command may take, loading included: at the limit it prints the best "
                        "plan found so far and says how far it got")
        ->type_name("S")
        ->check(positiveNumber(kMaxSeconds));
    command->add_flag("--json", options->json, "print JSON");
    command->add_option("-o,--output", options->output, "write the best plan")->type_name("PLAN.json");
    command->add_option("--emit-iopddl", options->emitIopddl, "write the problem solved in the IOPDDL format")
        ->type_name("FILE");
    command->add_option("--target", options->target,
                        "the training stack the plan is for: only plans it runs as is are searched "
                        "(megatron, torchtitan, pytorch; any: every per-node split, not runnable as is)")
        ->type_name("STACK")
        ->check(CLI::IsMember({"any", "pytorch", "megatron", "torchtitan"}))
        ->default_str(trainingStackName(kDefaultTrainingStack));
    addHistoryOptions(*command, options->history, true);
    return {command, [options, argv0] { return search(*options, argv0); }};
}

}  // namespace tapestry::cli
