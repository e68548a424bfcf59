#include "export/TrainingStackSettings.h"

#include "base/Error.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "graph/ModelFingerprint.h"
#include "plan/ExpertPlans.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

namespace tapestry {

namespace {

constexpr std::size_t kMaxPatternNotes = 6;
constexpr std::size_t kNoAxis = std::numeric_limits<std::size_t>::max();  // a plan without tensor parallelism

bool splitsWeightsOn(const Plan& plan, std::size_t axis)
{
    return std::any_of(plan.strategies.begin(), plan.strategies.end(),
                       [axis](const NodeStrategy& s) { return splitsWeights(s.axes.at(axis)); });
}

// A node's name with its block's scope replaced by the family's ("model/layers.#/mlp/fc1/MatMul"),
// so that a difference repeated in every block is one note.
std::vector<std::string> familyNodeNames(const CoarseGraph& coarse, const FamilyTable& families)
{
    std::vector<std::string> names(coarse.nodes.size());
    for (const CoarseNode& node : coarse.nodes)
        names[node.id.index()] = node.name;
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;
        for (const BlockInstance& instance : family.instances)
            for (const CoarseNodeId id : instance.nodes) {
                const std::string& name = coarse.node(id).name;
                if (name.starts_with(instance.scope))
                    names[id.index()] = family.name + name.substr(instance.scope.size());
            }
    }
    return names;
}

std::string splitsText(const std::vector<AxisSplit>& splits, const std::vector<std::string>& axisNames)
{
    std::string text;
    for (std::size_t a = 0; a < splits.size(); ++a)
        text += (text.empty() ? "" : " ") + axisNames[a] + "=" + axisSplitName(splits[a]);
    return text;
}

// Notes for the nodes whose splits differ from Megatron-LM's pattern on the same axes.
void notePatternDifferences(TrainingStackSettings& settings, const FoldedModel& model, const Plan& plan,
                            std::size_t tpAxis)
{
    const ExpertPlanKind kind = tpAxis == kNoAxis           ? ExpertPlanKind::DataParallel
                                : settings.sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel
                                                            : ExpertPlanKind::Megatron;
    const Plan reference = makeExpertPlan(kind, model.coarse, {{"dp", settings.dataParallel}, {"tp", settings.tensorParallel}});
    std::vector<std::string> axisNames;
    for (const MeshAxis& axis : plan.mesh)
        axisNames.push_back(axis.name);
    const std::vector<std::string> names = familyNodeNames(model.coarse, model.families);
    struct Difference {
        std::size_t count = 0;
        std::string plan;
        std::string megatron;
    };
    std::map<std::string, Difference> differences;  // by family node name
    std::vector<std::string> order;
    for (const CoarseNode& node : model.coarse.nodes) {
        const std::vector<AxisSplit>& splits = plan.strategy(node.id).axes;
        const std::vector<AxisSplit>& megatron = reference.strategy(node.id).axes;
        std::vector<AxisSplit> expected(splits.size(), megatron.front());
        if (tpAxis != kNoAxis)
            expected[tpAxis] = megatron.back();
        if (splits == expected)
            continue;
        const std::string& name = names[node.id.index()];
        auto [entry, added] = differences.try_emplace(name);
        if (added) {
            order.push_back(name);
            entry->second.plan = splitsText(splits, axisNames);
            entry->second.megatron = splitsText(expected, axisNames);
        }
        ++entry->second.count;
    }
    for (std::size_t i = 0; i < order.size() && i < kMaxPatternNotes; ++i) {
        const Difference& d = differences.at(order[i]);
        settings.notes.push_back("'" + order[i] + "'" + (d.count > 1 ? " (" + std::to_string(d.count) + " nodes)" : "") +
                                 " splits " + d.plan + " where Megatron-LM's layout splits " + d.megatron);
    }
    if (order.size() > kMaxPatternNotes)
        settings.notes.push_back("and " + std::to_string(order.size() - kMaxPatternNotes) +
                                 " more nodes split unlike Megatron-LM's layout");
}

}  // namespace

TrainingStackSettings trainingStackSettings(const FoldedModel& model, const PlanDocument& document, int gpusPerNode)
{
    const Plan& plan = document.plan;
    validatePlan(plan, model.coarse);
    TrainingStackSettings settings;
    std::vector<std::size_t> weightAxes;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        if (splitsWeightsOn(plan, axis))
            weightAxes.push_back(axis);
    const std::size_t tpAxis = weightAxes.empty() ? kNoAxis : weightAxes.back();
    settings.dataParallel = 1;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        (axis == tpAxis ? settings.tensorParallel : settings.dataParallel) *= plan.mesh[axis].size;
    for (std::size_t axis : weightAxes)
        if (axis != tpAxis)
            settings.notes.push_back("the plan splits weights on mesh axis '" + plan.mesh[axis].name +
                                     "' too (2-D tensor parallelism): written as data parallelism over it");
    if (tpAxis != kNoAxis) {
        settings.sequenceParallel = std::any_of(model.coarse.nodes.begin(), model.coarse.nodes.end(), [&](const CoarseNode& n) {
            return n.kind == CoarseNodeKind::Normalization && plan.strategy(n.id).axes[tpAxis] == AxisSplit::Sequence;
        });
        int stride = 1;  // devices between neighbours of the tensor-parallel axis (row-major mesh)
        for (std::size_t axis = tpAxis + 1; axis < plan.mesh.size(); ++axis)
            stride *= plan.mesh[axis].size;
        if (stride > 1)
            settings.notes.push_back("tensor-parallel axis '" + plan.mesh[tpAxis].name +
                                     "' is not the mesh's innermost axis; these stacks put tensor parallelism on "
                                     "consecutive ranks");
        if (gpusPerNode > 0 && settings.tensorParallel > 1 && settings.tensorParallel * stride > gpusPerNode)
            settings.notes.push_back("tensor parallelism over " + std::to_string(settings.tensorParallel) +
                                     " GPUs crosses nodes of " + std::to_string(gpusPerNode) +
                                     ": its collectives go over the network");
    }
    notePatternDifferences(settings, model, plan, tpAxis);

    settings.pipeline = plan.pipeline;
    const std::vector<const BlockInstance*> blocks = modelBlocks(model.families);
    settings.layers = static_cast<std::int64_t>(blocks.size());
    for (const BlockInstance* block : blocks)
        settings.blockModulePaths.push_back(blockModulePath(*block));
    if (plan.pipeline.active())
        settings.pipeline.chunkStarts = chunkStarts(plan.pipeline, blocks.size());

    // The batch and sequence the plan was priced with (CostModel's binding and default).
    const int stageDevices = planDeviceCount(plan) / plan.pipeline.stages;
    const ShapeBinder binder(model.graph(), document.workload,
                             std::max<std::int64_t>(ShapeBinder::kDefaultBatch, 2 * std::int64_t{stageDevices} * plan.pipeline.stages));
    settings.workload = document.workload;
    settings.workload.batch = binder.batch();
    settings.workload.sequence = binder.sequence();
    if (settings.workload.microBatch == 0)
        settings.workload.microBatch = std::max<std::int64_t>(1, settings.workload.batch / settings.dataParallel);
    if (settings.workload.batch % (settings.workload.microBatch * settings.dataParallel) != 0)
        settings.notes.push_back("the global batch " + std::to_string(settings.workload.batch) +
                                 " is not a multiple of micro-batch " + std::to_string(settings.workload.microBatch) +
                                 " x data parallel " + std::to_string(settings.dataParallel));
    return settings;
}

PlanDocument planFromTrainingStackSettings(const TrainingStackSettings& settings, const FoldedModel& model,
                                           const std::string& fileName, int gpuCount)
{
    const std::size_t blocks = modelBlocks(model.families).size();
    if (settings.layers > 0 && static_cast<std::size_t>(settings.layers) != blocks)
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "says the model has " + std::to_string(settings.layers) + " layers; this model has " +
                        std::to_string(blocks) + " blocks");
    const std::int64_t modelParallel = std::int64_t{settings.pipeline.stages} * settings.tensorParallel;
    int dataParallel = settings.dataParallel;
    if (dataParallel == 0) {
        if (gpuCount <= 0)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "does not say the data-parallel size: it follows from the GPU count, so give the cluster");
        if (gpuCount % modelParallel != 0)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "pipeline " + std::to_string(settings.pipeline.stages) + " x tensor parallel " +
                            std::to_string(settings.tensorParallel) + " does not divide the cluster's " +
                            std::to_string(gpuCount) + " GPUs");
        dataParallel = static_cast<int>(gpuCount / modelParallel);
    } else if (gpuCount > 0 && modelParallel * dataParallel != gpuCount) {
        TrainingStackSettings sizes = settings;
        sizes.dataParallel = dataParallel;
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "says " + trainingStackShape(sizes) + "; the cluster has " + std::to_string(gpuCount));
    }
    PlanDocument document;
    document.plan = makeExpertPlan(settings.sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel
                                                             : ExpertPlanKind::Megatron,
                                   model.coarse, {{"dp", dataParallel}, {"tp", settings.tensorParallel}});
    document.plan.origin = PlanOrigin::Import;
    document.plan.name = std::filesystem::path(fileName).stem().string();
    document.plan.pipeline = settings.pipeline;
    try {
        (void)chunkStarts(settings.pipeline, blocks);
    } catch (const Error& error) {
        throw Error(ErrorCode::InvalidPlan, fileName, error.message());
    }
    validatePlan(document.plan, model.coarse);
    document.workload = settings.workload;
    if (document.workload.batch == 0)
        document.workload.batch = (settings.rankBatch > 0 ? settings.rankBatch : document.workload.microBatch) * dataParallel;
    document.modelFingerprint = modelFingerprint(model.graph());
    return document;
}

std::string trainingStackShape(const TrainingStackSettings& settings)
{
    const std::int64_t gpus = std::int64_t{settings.pipeline.stages} * settings.dataParallel * settings.tensorParallel;
    return "pipeline " + std::to_string(settings.pipeline.stages) + " x data parallel " +
           std::to_string(settings.dataParallel) + " x tensor parallel " + std::to_string(settings.tensorParallel) +
           " = " + std::to_string(gpus) + " GPUs";
}

std::string blockModulePath(const BlockInstance& block)
{
    std::string path = block.scope;
    std::replace(path.begin(), path.end(), '/', '.');
    return path;
}

std::string commentLine(std::string text)
{
    std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string trainingStackComments(const std::string& title, const std::string& stack, const FoldedModel& model,
                                  const PlanDocument& document, const TrainingStackSettings& settings,
                                  const std::vector<std::string>& guidance, const std::vector<std::string>& notes)
{
    std::string text = "# " + title + " for Tapestry plan \"" + commentLine(document.plan.name) + "\"";
    if (!model.graph().info().sourcePath.empty())
        text += " (" + commentLine(std::filesystem::path(model.graph().info().sourcePath).filename().string()) + ")";
    text += ":\n# " + trainingStackShape(settings) + ".\n";
    for (const std::string& line : guidance)
        text += "# " + line + "\n";
    if (!notes.empty()) {
        text += "#\n# Not expressible in " + stack + ":\n";
        for (const std::string& note : notes)
            text += "#   - " + commentLine(note) + "\n";
    }
    return text;
}

}  // namespace tapestry
