// `tapestry-cli history list|show|diff|tag|delete|export ...`
#include "cli/Commands.h"
#include "cli/HistoryRecording.h"
#include "cli/ModelContext.h"

#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/JsonReader.h"
#include "graph/ModelFingerprint.h"
#include "history/HistoryStore.h"
#include "plan/PlanDiff.h"
#include "history/PlanOfRecord.h"

#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>

namespace tapestry::cli {

namespace {

struct HistoryCommandOptions {
    HistoryOptions history;
    std::size_t limit = 20;
    std::uint32_t plan = 0;
    std::uint32_t otherPlan = 0;  // diff's plan B
    std::string model;
    std::string tag;
    bool force = false;
    std::string output;
};

std::string timeText(double secondsSinceEpoch)
{
    const std::time_t time = static_cast<std::time_t>(secondsSinceEpoch);
    std::tm local{};
    localtime_r(&time, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
    return text;
}

std::string meshText(const std::vector<MeshAxis>& axes)
{
    std::string shape;
    std::string names;
    for (const MeshAxis& axis : axes) {
        shape += (shape.empty() ? "" : "x") + std::to_string(axis.size);
        names += (names.empty() ? "" : ",") + axis.name;
    }
    return shape + " (" + names + ")";
}

std::string splitsText(const NodeStrategy& strategy)
{
    std::string text;
    for (const AxisSplit split : strategy.axes)
        text += std::string(text.empty() ? "" : ",") + axisSplitName(split);
    return text;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

std::string fileName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

int list(HistoryStore& store, std::size_t limit)
{
    std::printf("history %s\n\nruns, newest first\n", store.file().string().c_str());
    std::printf("  %4s  %-10s %-9s %-10s %-9s %-28s %-24s %-16s %8s %5s\n", "id", "status", "command", "target",
                "precision", "model", "cluster", "started", "seconds", "plans");
    for (const RunRecord& run : store.recentRuns(limit)) {
        const std::string seconds = run.finishedAt ? std::to_string(*run.finishedAt - run.startedAt).substr(0, 6) : "-";
        const std::string target = run.settings.target.empty() ? "-" : run.settings.target;  // before schema 5
        std::printf("  %4u  %-10s %-9s %-10s %-9s %-28s %-24s %-16s %8s %5zu\n", run.id.value(), runStatusName(run.status),
                    run.settings.command.c_str(), target.c_str(), precisionName(run.settings.workload).c_str(),
                    fileName(run.modelPath).c_str(), run.clusterName.c_str(), timeText(run.startedAt).c_str(),
                    seconds.c_str(), run.planCount);
    }
    std::printf("\nplans, newest first\n");
    std::printf("  %4s  %4s %-28s %-24s %-14s %10s %10s %-7s %6s %5s  %s\n", "id", "run", "model", "cluster", "mesh",
                "step ms", "memory GB", "origin", "parent", "stale", "name [tags]");
    for (const PlanRecord& plan : store.recentPlans(limit)) {
        const std::string run = plan.run.isValid() ? std::to_string(plan.run.value()) : "-";
        const std::string parent = plan.parent.isValid() ? std::to_string(plan.parent.value()) : "-";
        const std::string step = plan.cost ? std::to_string(plan.cost->stepSeconds * 1e3).substr(0, 9) : "-";
        const std::string memory = plan.cost ? std::to_string(plan.cost->memoryBytes / 1e9).substr(0, 7) : "-";
        const std::string tags = plan.tags.empty() ? "" : " [" + joined(plan.tags) + "]";
        std::printf("  %4u  %4s %-28s %-24s %-14s %10s %10s %-7s %6s %5s  %s%s\n", plan.id.value(), run.c_str(),
                    fileName(plan.modelPath).c_str(), plan.clusterName.c_str(), meshText(plan.meshAxes).c_str(),
                    step.c_str(), memory.c_str(), planOriginName(plan.origin), parent.c_str(),
                    plan.stale ? "yes" : "no", plan.name.c_str(), tags.c_str());
    }
    return 0;
}

// The strategies as the plan file writes them: per family (relative node names) and
// per node outside families; read from the stored JSON, so no model is needed.
void printStrategies(const PlanRecord& plan, const std::string& name)
{
    const JsonValue json = parseJson(plan.json, name);
    auto printNodes = [](const JsonValue* nodes, const char* indent) {
        if (!nodes || !nodes->isArray())
            return;
        for (const JsonValue& node : nodes->asArray()) {
            const JsonValue* nodeName = node.find("node");
            const JsonValue* splits = node.find("splits");
            std::string text;
            if (splits && splits->isArray()) {
                for (const JsonValue& split : splits->asArray())
                    text += (text.empty() ? "" : ",") + (split.isString() ? split.asString() : std::string("?"));
            }
            std::printf("%s%-52s %s\n", indent, nodeName && nodeName->isString() ? nodeName->asString().c_str() : "?",
                        text.c_str());
        }
    };
    std::printf("strategies\n");
    if (const JsonValue* families = json.find("families"); families && families->isArray()) {
        for (const JsonValue& family : families->asArray()) {
            const JsonValue* familyName = family.find("family");
            std::printf("  %s\n", familyName && familyName->isString() ? familyName->asString().c_str() : "?");
            printNodes(family.find("nodes"), "    ");
        }
    }
    printNodes(json.find("nodes"), "  ");
}

int show(HistoryStore& store, PlanRecordId id)
{
    const PlanRecord plan = store.plan(id);
    std::printf("plan %u  %s\n", id.value(), plan.name.c_str());
    std::printf("origin     %s%s, %s\n", planOriginName(plan.origin),
                plan.run.isValid() ? (" (run " + std::to_string(plan.run.value()) + ")").c_str() : "",
                timeText(plan.createdAt).c_str());
    std::string lineage;
    for (const PlanRecordId ancestor : store.lineage(id))
        lineage += (lineage.empty() ? "" : " <- ") + std::to_string(ancestor.value());
    std::printf("lineage    %s\n", lineage.c_str());
    std::printf("model      %s (fingerprint %s)\n", plan.modelPath.c_str(), plan.modelFingerprint.c_str());
    std::printf("cluster    %s, mesh %s\n", plan.clusterName.c_str(), meshText(plan.meshAxes).c_str());
    if (plan.cost) {
        const PlanCostSummary& c = *plan.cost;
        std::printf("step       %.3f ms (compute %.3f ms, communication %.3f ms)\n", c.stepSeconds * 1e3,
                    c.computeSeconds * 1e3, c.communicationSeconds * 1e3);
        std::printf("memory     %.2f GB of %.2f GB per device%s\n", c.memoryBytes / 1e9, c.hbmBytes / 1e9,
                    *plan.fitsInMemory() ? "" : " (does not fit)");
    }
    if (plan.stale)
        std::printf("stale      yes: its model file or cluster has changed since; re-cost it\n");
    if (!plan.pins.empty())
        std::printf("pins       %s\n", joined(plan.pins).c_str());
    if (!plan.tags.empty())
        std::printf("tags       %s\n", joined(plan.tags).c_str());
    for (const std::string& note : plan.notes)
        std::printf("note       %s\n", note.c_str());
    std::printf("\n");
    printStrategies(plan, store.file().string() + " plan " + std::to_string(id.value()));
    return 0;
}

int diff(HistoryStore& store, PlanRecordId idA, PlanRecordId idB, const std::string& modelOption)
{
    const PlanRecord a = store.plan(idA);
    const PlanRecord b = store.plan(idB);
    const std::string modelFile = modelOption.empty() ? a.modelPath : modelOption;
    const FoldedModel model = loadAndFold(modelFile);
    const std::string fingerprint = modelFingerprint(model.graph());
    for (const PlanRecord* plan : {&a, &b}) {
        if (plan->modelFingerprint != fingerprint)
            std::fprintf(stderr,
                         "tapestry-cli history: note: plan %u was made for model fingerprint %s, %s has %s; "
                         "nodes are named after %s\n",
                         plan->id.value(), plan->modelFingerprint.c_str(), modelFile.c_str(), fingerprint.c_str(),
                         modelFile.c_str());
    }
    const PlanDocument documentA = planOfRecord(a, store.file(), model);
    const PlanDocument documentB = planOfRecord(b, store.file(), model);
    const PlanDiff result = diffPlans(documentA, documentB, model.coarse);

    std::printf("plan %u -> plan %u: %zu of %zu coarse nodes differ%s\n", idA.value(), idB.value(),
                result.changes.size(), model.coarse.nodes.size(),
                result.meshDiffers ? (" (mesh " + meshText(a.meshAxes) + " -> " + meshText(b.meshAxes) + ")").c_str()
                                   : "");
    if (!result.changes.empty()) {
        const std::string headA = "plan " + std::to_string(idA.value());
        const std::string headB = "plan " + std::to_string(idB.value());
        std::printf("  %-56s %-18s %s\n", "node", headA.c_str(), headB.c_str());
        // One edit of a repeated block is one line: "model/layers.#/mlp/down_proj/MatMul x32".
        for (const StrategyChangeGroup& group : groupedChanges(result, model.coarse, model.families)) {
            const std::string name =
                group.nodes.size() > 1 ? group.name + " x" + std::to_string(group.nodes.size()) : group.name;
            std::printf("  %-56s %-18s %s\n", name.c_str(), splitsText(group.before).c_str(),
                        splitsText(group.after).c_str());
        }
    }
    if (result.costDelta) {
        const PlanCostDelta& d = *result.costDelta;
        std::printf("\nper device, plan %u minus plan %u\n", idB.value(), idA.value());
        std::printf("  step           %+10.3f ms\n", d.stepSeconds * 1e3);
        std::printf("  compute        %+10.3f ms\n", d.computeSeconds * 1e3);
        std::printf("  communication  %+10.3f ms\n", d.communicationSeconds * 1e3);
        std::printf("  memory         %+10.3f GB\n", d.memoryBytes / 1e9);
    }
    return 0;
}

int exportPlan(HistoryStore& store, PlanRecordId id, const std::string& output)
{
    const PlanRecord plan = store.plan(id);
    writeFileAtomically(output, plan.json);
    std::printf("wrote plan %u to %s\n", id.value(), output.c_str());
    return 0;
}

int deletePlan(HistoryStore& store, PlanRecordId id, bool force)
{
    try {
        store.deletePlan(id, force);
    } catch (Error& error) {
        if (error.code() == ErrorCode::HistoryPlanInUse)
            error.addContext("deleting plan " + std::to_string(id.value()) + "; --force deletes it anyway");
        throw;
    }
    std::printf("deleted plan %u\n", id.value());
    return 0;
}

int runAction(const std::string& action, const HistoryCommandOptions& options)
{
    const std::filesystem::path file = historyPathFromOptions(options.history);
    if (!std::filesystem::exists(file)) {
        if (action == "list") {
            std::printf("no history at %s yet: `tapestry-cli search` and `evaluate` record their runs there\n",
                        file.string().c_str());
            return 0;
        }
        throw Error(ErrorCode::FileNotFound, file.string(), "no history database here yet");
    }
    HistoryStore store(file);
    if (!store.readingNote().empty())
        std::fprintf(stderr, "tapestry-cli history: note: %s %s\n", file.string().c_str(), store.readingNote().c_str());
    const PlanRecordId plan(options.plan);
    if (action == "list")
        return list(store, options.limit);
    if (action == "show")
        return show(store, plan);
    if (action == "diff")
        return diff(store, plan, PlanRecordId(options.otherPlan), options.model);
    if (action == "export")
        return exportPlan(store, plan, options.output);
    if (action == "tag") {
        store.tagPlan(plan, options.tag);
        return 0;
    }
    return deletePlan(store, plan, options.force);
}

// Plan ids are 32-bit in the history: a larger number is refused, not truncated to
// another plan's id.
void addPlanId(CLI::App& action, const std::string& name, std::uint32_t& target, const std::string& help)
{
    action.add_option(name, target, help)->required()->check(wholeNumber(1, PlanRecordId::kInvalid - 1));
}

}  // namespace

Command declareHistory(CLI::App& app)
{
    auto options = std::make_shared<HistoryCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "history", "the runs and plans kept in the history: id, model, cluster, mesh, step time, memory, origin, "
                   "parent, stale; strategies of a plan; what changed between two plans and by how much; tags; "
                   "deletion (refused for parents without --force)");
    command->require_subcommand(1);
    CLI::App* list = command->add_subcommand("list", "the newest runs and plans");
    list->add_option("--limit", options->limit, "how many of each (default 20)")
        ->type_name("N")
        ->check(wholeNumber(1, std::numeric_limits<std::int32_t>::max()));
    CLI::App* show = command->add_subcommand("show", "a plan: origin, lineage, model, cluster, cost, tags, strategies");
    addPlanId(*show, "ID", options->plan, "the plan's id");
    CLI::App* diff = command->add_subcommand("diff", "what changed between two plans and by how much");
    addPlanId(*diff, "A", options->plan, "the first plan's id");
    addPlanId(*diff, "B", options->otherPlan, "the second plan's id");
    diff->add_option("--model", options->model, "name the nodes after this model (default: plan A's)")
        ->type_name("MODEL");
    CLI::App* tag = command->add_subcommand("tag", "tag a plan");
    addPlanId(*tag, "ID", options->plan, "the plan's id");
    tag->add_option("TAG", options->tag, "the tag")->required();
    CLI::App* remove = command->add_subcommand("delete", "delete a plan (refused for a parent without --force)");
    addPlanId(*remove, "ID", options->plan, "the plan's id");
    remove->add_flag("--force", options->force, "delete a parent of other plans too");
    CLI::App* exported = command->add_subcommand("export", "write a plan's file");
    addPlanId(*exported, "ID", options->plan, "the plan's id");
    exported->add_option("-o,--output", options->output, "the plan file to write")->type_name("PLAN.json")->required();
    // --history goes before or after the action: `history --history F list` as well.
    addHistoryOptions(*command, options->history, false);
    for (CLI::App* action : command->get_subcommands({}))
        addHistoryOptions(*action, options->history, false);
    // require_subcommand(1): the parse chose exactly one action.
    return {command, [options, command] { return runAction(command->get_subcommands().front()->get_name(), *options); }};
}

}  // namespace tapestry::cli
