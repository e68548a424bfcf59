#include "target/TrainingStackSettings.h"

#include "base/Error.h"
#include "cost/AttentionHeads.h"
#include "cost/ExpertRouting.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "plan/ExpertPlans.h"
#include "target/StagePlans.h"

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

std::string splitsText(const AxisSplits& splits, const std::vector<std::string>& axisNames)
{
    std::string text;
    for (std::size_t a = 0; a < splits.size(); ++a)
        text += (text.empty() ? "" : " ") + axisNames[a] + "=" + axisSplitName(splits[a]);
    return text;
}

// Notes for the nodes whose splits differ from Megatron-LM's pattern on the same axes:
// its tensor parallelism on `tpAxis`, context parallelism of the settings' variant on
// `contextAxes`, data parallelism on the others, and on `expertAxes` the expert split for
// the nodes the plan spreads as experts.
void notePatternDifferences(TrainingStackSettings& settings, const FoldedModel& model, const Plan& plan,
                            std::size_t tpAxis, const std::vector<bool>& contextAxes, const std::vector<bool>& expertAxes)
{
    const ExpertPlanKind kind = tpAxis == kNoAxis           ? ExpertPlanKind::DataParallel
                                : settings.sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel
                                                            : ExpertPlanKind::Megatron;
    const Plan reference = makeExpertPlan(kind, model.coarse, {{"dp", settings.dataParallel}, {"tp", settings.tensorParallel}});
    // Context parallelism's pattern only where some axis runs it.
    const bool context = std::find(contextAxes.begin(), contextAxes.end(), true) != contextAxes.end();
    const Plan contextReference = context ? makeExpertPlan(settings.contextVariant == ContextParallelVariant::Ulysses
                                                               ? ExpertPlanKind::Ulysses
                                                               : ExpertPlanKind::RingAttention,
                                                           model.coarse, {{"cp", settings.contextParallel}})
                                          : Plan{};
    std::vector<std::string> axisNames;
    for (const MeshAxis& axis : plan.mesh)
        axisNames.push_back(axis.name);
    std::vector<std::string> names;  // named at the first difference: most plans a search checks have none
    struct Difference {
        std::size_t count = 0;
        std::string plan;
        std::string megatron;
    };
    std::map<std::string, Difference> differences;  // by family node name
    std::vector<std::string> order;
    for (const CoarseNode& node : model.coarse.nodes) {
        const AxisSplits& splits = plan.strategy(node.id).axes;
        const AxisSplits& megatron = reference.strategy(node.id).axes;
        AxisSplits expected(splits.size(), megatron.front());
        if (tpAxis != kNoAxis)
            expected[tpAxis] = megatron.back();
        const bool expert = std::find(splits.begin(), splits.end(), AxisSplit::Expert) != splits.end();
        for (std::size_t axis = 0; axis < splits.size(); ++axis) {
            if (expert && expertAxes[axis])
                expected[axis] = AxisSplit::Expert;
            else if (contextAxes[axis])
                expected[axis] = contextReference.strategy(node.id).axes.back();
            if (plan.mesh[axis].size == 1)
                expected[axis] = splits[axis];  // a split over one GPU moves nothing (physicalLayout)
        }
        if (splits == expected)
            continue;
        if (names.empty())
            names = familyNodeNames(model.coarse, model.families);
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

std::string axisNames(const Plan& plan, const std::vector<std::size_t>& axes)
{
    std::string text;
    for (const std::size_t axis : axes)
        text += (text.empty() ? "'" : ", '") + plan.mesh[axis].name + "'";
    return text;
}

// The context-parallel variant, and notes for mixed variants and for context-parallel
// axes outside a data-parallel one (the stacks order ranks tp, cp, dp from the inside).
void noteContextParallelism(TrainingStackSettings& settings, const Plan& plan,
                            const std::vector<ContextParallelVariant>& variants, const std::vector<bool>& contextAxes,
                            std::size_t tpAxis)
{
    if (variants.empty())
        return;
    settings.contextVariant = variants.front();
    if (std::any_of(variants.begin(), variants.end(), [&](ContextParallelVariant v) { return v != variants.front(); })) {
        settings.contextVariant = ContextParallelVariant::Ring;
        settings.notes.push_back("ring attention on some context-parallel axes and Ulysses on others: written as "
                                 "ring attention over all of them");
    }
    std::size_t innermostData = kNoAxis;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        if (axis != tpAxis && !contextAxes[axis] && plan.mesh[axis].size > 1)
            innermostData = axis;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        if (contextAxes[axis] && innermostData != kNoAxis && axis < innermostData)
            settings.notes.push_back("context-parallel axis '" + plan.mesh[axis].name + "' lies outside data-parallel "
                                     "axis '" + plan.mesh[innermostData].name + "'; Megatron-LM and torchtitan put "
                                     "context-parallel ranks between the tensor- and data-parallel ones");
}

// A note when the plan spreads experts over other axes than the stacks take for them: from
// the inside, the tensor-parallel axis (when the experts spread over it), the
// context-parallel axes, then the data-parallel ones.
void noteExpertParallelism(TrainingStackSettings& settings, const Plan& plan, const std::vector<bool>& contextAxes,
                           const std::vector<bool>& expertAxes, std::size_t tpAxis)
{
    if (settings.expertParallel <= 1)
        return;
    std::vector<std::size_t> order;
    if (settings.expertTensorParallel == 1 && tpAxis != kNoAxis && plan.mesh[tpAxis].size > 1)
        order.push_back(tpAxis);
    for (const bool context : {true, false})
        for (std::size_t axis = plan.mesh.size(); axis-- > 0;)
            if (axis != tpAxis && contextAxes[axis] == context && plan.mesh[axis].size > 1)
                order.push_back(axis);
    std::vector<std::size_t> spread;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        if (expertAxes[axis])
            spread.push_back(axis);
    std::vector<std::size_t> taken(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(std::min(spread.size(), order.size())));
    std::sort(taken.begin(), taken.end());
    if (taken != spread)
        settings.notes.push_back("experts spread over " + axisNames(plan, spread) + ": Megatron-LM and torchtitan take "
                                 "expert-parallel ranks from the inside out (" + axisNames(plan, order) +
                                 "), so their experts land on other GPUs than the plan's");
}

// The stage mesh and plan of planFromTrainingStackSettings.
// What a stage plan without expert parallelism depends on besides the axis sizes.
StagePlans::Kind stagePlanKind(const TrainingStackSettings& settings)
{
    ContextParallelVariant context = ContextParallelVariant::None;
    if (settings.contextParallel > 1)
        context = settings.contextVariant == ContextParallelVariant::Ulysses ? ContextParallelVariant::Ulysses
                                                                             : ContextParallelVariant::Ring;
    return {settings.sequenceParallel, context};
}

// `built`: the strategies of a plan of the same kind (stagePlanKind), built before;
// `plans`: the model's stage plans, whose Megatron plans it starts from, or null.
Plan stagePlan(const TrainingStackSettings& settings, const FoldedModel& model, const std::string& fileName,
               int dataParallel, const std::vector<NodeStrategy>* built, StagePlans* plans)
{
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::InvalidPlan, fileName, what); };
    const int tp = settings.tensorParallel;
    const int cp = settings.contextParallel;
    const int ep = settings.expertParallel;
    // Expert-parallel ranks from the inside out: the tensor-parallel ones when the experts
    // are not tensor parallel themselves, then the context-parallel ones, then data-parallel.
    int rest = ep;
    const bool expertsOverTp = ep > 1 && settings.expertTensorParallel == 1 && tp > 1;
    if (ep > 1 && settings.expertTensorParallel != 1 && settings.expertTensorParallel != tp)
        fail("expert tensor parallel " + std::to_string(settings.expertTensorParallel) + " is neither 1 nor the tensor "
             "parallel " + std::to_string(tp) + ": Tapestry spreads experts over whole tensor-parallel groups or none");
    if (expertsOverTp) {
        if (rest % tp != 0)
            fail("expert parallel " + std::to_string(ep) + " with expert tensor parallel 1 is not a multiple of the "
                 "tensor parallel " + std::to_string(tp));
        rest /= tp;
    }
    std::vector<MeshAxis> mesh{{"dp", dataParallel}};
    std::size_t firstContextAxis = 1;  // where the axes that split the sequence start
    bool expertsOverCp = false;        // the experts spread over the whole "cp" axis
    bool expertsOverDp = false;        // ... or the whole "dp" axis
    if (cp > 1 && rest > 1 && rest < cp) {
        if (cp % rest != 0)
            fail("expert parallel " + std::to_string(ep) + " does not divide the context parallel " + std::to_string(cp));
        mesh.push_back({"cp", cp / rest});
        mesh.push_back({"ep", rest});  // context parallel for attention, expert parallel for the experts
        rest = 1;
    } else {
        if (cp > 1 && rest > 1 && rest % cp != 0)
            fail("expert parallel " + std::to_string(ep) + " is not a multiple of the context parallel " +
                 std::to_string(cp));
        expertsOverCp = cp > 1 && rest >= cp;
        if (expertsOverCp)
            rest /= cp;
        if (rest > 1 && dataParallel % rest != 0)
            fail("expert parallel " + std::to_string(ep) + " takes " + std::to_string(rest) +
                 " data-parallel ranks of " + std::to_string(dataParallel));
        expertsOverDp = rest > 1 && rest == dataParallel;
        if (rest > 1 && rest < dataParallel) {
            mesh.front().size = dataParallel / rest;
            mesh.push_back({"ep", rest});
            ++firstContextAxis;
        }
        if (cp > 1)
            mesh.push_back({"cp", cp});
    }
    mesh.push_back({"tp", tp});
    if (built) {
        Plan plan;
        plan.mesh = std::move(mesh);
        plan.strategies = *built;
        return plan;
    }

    Plan plan = plans ? plans->megatronPlan(settings.sequenceParallel, mesh)
                      : makeExpertPlan(settings.sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel
                                                                 : ExpertPlanKind::Megatron,
                                       model.coarse, mesh);
    const std::size_t tpAxis = mesh.size() - 1;
    if (cp > 1) {
        const Plan context = makeExpertPlan(settings.contextVariant == ContextParallelVariant::Ulysses
                                                ? ExpertPlanKind::Ulysses
                                                : ExpertPlanKind::RingAttention,
                                            model.coarse, {{"cp", cp}});
        for (const CoarseNode& node : model.coarse.nodes)
            for (std::size_t axis = firstContextAxis; axis < tpAxis; ++axis)
                plan.strategies[node.id.index()].axes[axis] = context.strategy(node.id).axes.back();
    }
    if (ep > 1) {
        const std::vector<ExpertMembership> membership =
            expertMembership(model.graph(), model.coarse, ShapeBinder(model.graph(), settings.workload));
        bool spread = false;
        for (const CoarseNode& node : model.coarse.nodes) {
            // Every node of an expert that can take the split, so that tokens reach the
            // expert once and leave it once (the activation between its linears too).
            if (membership[node.id.index()].experts == 0 || !isLegalSplit(node.kind, AxisSplit::Expert))
                continue;
            AxisSplits& axes = plan.strategies[node.id.index()].axes;
            for (std::size_t axis = 0; axis < tpAxis; ++axis)
                if (mesh[axis].name == "ep" || (expertsOverCp && mesh[axis].name == "cp") ||
                    (expertsOverDp && mesh[axis].name == "dp"))
                    axes[axis] = AxisSplit::Expert;
            if (expertsOverTp)
                axes[tpAxis] = AxisSplit::Expert;
            spread = true;
        }
        if (!spread)
            fail("says expert parallel " + std::to_string(ep) + "; the model has no mixture-of-experts layer");
    }
    return plan;
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
    const std::size_t axes = plan.mesh.size();
    std::vector<bool> contextAxes(axes, false);
    std::vector<bool> expertAxes(axes, false);
    std::vector<ContextParallelVariant> variants;
    for (std::size_t axis = 0; axis < axes; ++axis) {
        const ContextParallelVariant variant =
            axis == tpAxis ? ContextParallelVariant::None : contextParallelVariant(plan, model.coarse, axis);
        contextAxes[axis] = variant != ContextParallelVariant::None;
        if (contextAxes[axis])
            variants.push_back(variant);
        expertAxes[axis] = plan.mesh[axis].size > 1 &&
                           std::any_of(plan.strategies.begin(), plan.strategies.end(),
                                       [axis](const NodeStrategy& s) { return s.axes.at(axis) == AxisSplit::Expert; });
    }
    settings.dataParallel = 1;
    for (std::size_t axis = 0; axis < axes; ++axis)
        (axis == tpAxis ? settings.tensorParallel : contextAxes[axis] ? settings.contextParallel : settings.dataParallel) *=
            plan.mesh[axis].size;
    noteContextParallelism(settings, plan, variants, contextAxes, tpAxis);
    settings.expertParallel = expertParallelDegree(plan);
    // The experts are tensor parallel where they split weights on the tensor-parallel axis.
    const bool expertsSplitWeights =
        tpAxis != kNoAxis && std::any_of(plan.strategies.begin(), plan.strategies.end(), [tpAxis](const NodeStrategy& s) {
            return splitsWeights(s.axes[tpAxis]) &&
                   std::find(s.axes.begin(), s.axes.end(), AxisSplit::Expert) != s.axes.end();
        });
    settings.expertTensorParallel = expertsSplitWeights ? settings.tensorParallel : 1;
    noteExpertParallelism(settings, plan, contextAxes, expertAxes, tpAxis);
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
            settings.remarks.push_back("tensor parallelism over " + std::to_string(settings.tensorParallel) +
                                     " GPUs crosses nodes of " + std::to_string(gpusPerNode) +
                                     ": its collectives go over the network");
    }
    notePatternDifferences(settings, model, plan, tpAxis, contextAxes, expertAxes);

    settings.pipeline = plan.pipeline;
    const std::vector<const BlockInstance*> blocks = modelBlocks(model.families);
    settings.layers = static_cast<std::int64_t>(blocks.size());
    for (const BlockInstance* block : blocks)
        settings.blockModulePaths.push_back(blockModulePath(*block));
    if (plan.pipeline.active())
        settings.pipeline.chunkStarts = chunkStarts(plan.pipeline, blocks.size());

    // The batch and sequence the plan was priced with (CostModel's binding and default).
    const ShapeBinder binder(model.graph(), document.workload, ShapeBinder::defaultBatchFor(planDeviceCount(plan)));
    settings.workload = document.workload;
    settings.workload.batch = binder.batch();
    settings.workload.sequence = binder.sequence();
    settings.groupedQueryAttention = repeatsKeyValueHeads(model.graph(), model.coarse, binder);
    // No data or context ranks: no stack shards anything (nor wraps it in FSDP).
    settings.workload.zeroStage =
        effectiveZeroStage(settings.workload.zeroStage, settings.dataParallel * settings.contextParallel);
    if (settings.workload.microBatch == 0)
        settings.workload.microBatch = std::max<std::int64_t>(1, settings.workload.batch / settings.dataParallel);
    return settings;
}

PlanDocument planFromTrainingStackSettings(const TrainingStackSettings& settings, const FoldedModel& model,
                                           const std::string& fileName, int gpuCount, StagePlans* plans)
{
    const std::size_t blocks = modelBlocks(model.families).size();
    if (settings.layers > 0 && static_cast<std::size_t>(settings.layers) != blocks)
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "says the model has " + std::to_string(settings.layers) + " layers; this model has " +
                        std::to_string(blocks) + " blocks");
    // In floating point first: a file's sizes may multiply past 2^63.
    const auto overTheLimit = [&](int dataParallel) {
        if (static_cast<double>(settings.pipeline.stages) * settings.contextParallel * settings.tensorParallel *
                std::max(dataParallel, 1) <= (1 << 20))
            return;
        TrainingStackSettings sizes = settings;
        sizes.dataParallel = dataParallel;
        throw Error(ErrorCode::InvalidPlan, fileName, "says " + trainingStackShape(sizes) + ": over 2^20 GPUs");
    };
    overTheLimit(settings.dataParallel);
    const std::int64_t modelParallel =
        std::int64_t{settings.pipeline.stages} * settings.contextParallel * settings.tensorParallel;
    int dataParallel = settings.dataParallel;
    if (dataParallel == 0) {
        if (gpuCount <= 0)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "does not say the data-parallel size: it follows from the GPU count, so give the cluster");
        if (gpuCount % (modelParallel * settings.replicas) != 0)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "pipeline " + std::to_string(settings.pipeline.stages) +
                            (settings.replicas > 1 ? " x data-parallel replicas " + std::to_string(settings.replicas)
                                                   : std::string()) +
                            (settings.contextParallel > 1 ? " x context parallel " + std::to_string(settings.contextParallel)
                                                          : std::string()) +
                            " x tensor parallel " + std::to_string(settings.tensorParallel) +
                            " does not divide the cluster's " + std::to_string(gpuCount) + " GPUs");
        dataParallel = static_cast<int>(gpuCount / modelParallel);
    } else if (gpuCount > 0 && modelParallel * dataParallel != gpuCount) {
        TrainingStackSettings sizes = settings;
        sizes.dataParallel = dataParallel;
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "says " + trainingStackShape(sizes) + "; the cluster has " + std::to_string(gpuCount));
    }
    overTheLimit(dataParallel);
    PlanDocument document;
    StagePlans* ofModel = plans && plans->of(model) ? plans : nullptr;
    StagePlans* keeping = ofModel && settings.expertParallel <= 1 ? ofModel : nullptr;
    const StagePlans::Kind kind = stagePlanKind(settings);
    const std::vector<NodeStrategy>* built = keeping ? keeping->find(kind) : nullptr;
    document.plan = stagePlan(settings, model, fileName, dataParallel, built, ofModel);
    document.plan.origin = PlanOrigin::Import;
    document.plan.name = std::filesystem::path(fileName).stem().string();
    document.plan.pipeline = settings.pipeline;
    try {
        (void)chunkStarts(settings.pipeline, blocks);
    } catch (const Error& error) {
        throw Error(ErrorCode::InvalidPlan, fileName, error.message());
    }
    if (built)
        validatePlan(document.plan, model.coarse, {});  // its strategies were checked when first built
    else
        validatePlan(document.plan, model.coarse);
    if (keeping && !built)
        keeping->add(kind, document.plan.strategies);
    document.workload = settings.workload;
    if (settings.dataParallel == 0 && settings.replicas > 1 && dataParallel == settings.replicas)
        document.workload.zeroStage = 0;  // every data-parallel rank a replica: nothing sharded
    document.workload.zeroStage =
        effectiveZeroStage(document.workload.zeroStage, dataParallel * settings.contextParallel);
    if (document.workload.zeroStage >= 2)
        document.workload.zeroReplicas = settings.replicas;  // HSDP: each replica shards over its own ranks
    if (document.workload.batch == 0)
        document.workload.batch = (settings.rankBatch > 0 ? settings.rankBatch : document.workload.microBatch) * dataParallel;
    document.modelFingerprint = model.fingerprint;
    return document;
}

std::string trainingStackShape(const TrainingStackSettings& settings)
{
    // A file's sizes may multiply past 2^63.
    const double product = static_cast<double>(settings.pipeline.stages) * settings.dataParallel *
                           settings.contextParallel * settings.tensorParallel;
    const std::string gpus = product < 9e18 ? std::to_string(static_cast<std::int64_t>(product)) : "over 2^63";
    std::string text = "pipeline " + std::to_string(settings.pipeline.stages) + " x data parallel " +
                       std::to_string(settings.dataParallel);
    if (settings.contextParallel > 1)
        text += " x context parallel " + std::to_string(settings.contextParallel);
    text += " x tensor parallel " + std::to_string(settings.tensorParallel) + " = " + gpus + " GPUs";
    if (settings.expertParallel > 1)
        text += ", experts over " + std::to_string(settings.expertParallel);
    return text;
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
    for (const std::string& remark : settings.remarks)
        text += "# Note: " + commentLine(remark) + "\n";
    if (!notes.empty()) {
        text += "#\n# Not expressible in " + stack + ":\n";
        for (const std::string& note : notes)
            text += "#   - " + commentLine(note) + "\n";
    }
    return text;
}

TorchTitanDataParallel torchTitanDataParallel(const TrainingStackSettings& settings)
{
    const TrainingStackSettings& s = settings;
    TorchTitanDataParallel out;
    // torchtitan runs FSDP whenever context parallelism is on (ParallelDims.fsdp_enabled).
    out.sharded = s.workload.zeroStage >= 1 || s.contextParallel > 1;
    out.reshardAfterForward = s.workload.zeroStage >= 3;
    const int borrowed = s.contextParallel * (s.expertTensorParallel == 1 ? s.tensorParallel : 1);
    // HSDP's replicas; the expert ranks come from one replica's shard ranks.
    const int replicas = s.workload.zeroStage >= 2 ? std::max(1, s.workload.zeroReplicas) : 1;
    if (s.expertParallel > 1 && s.expertParallel % borrowed == 0 &&
        (s.dataParallel / replicas) % (s.expertParallel / borrowed) == 0)
        out.expertParallel = s.expertParallel;
    const int expertShard = out.expertParallel / borrowed;
    out.replicate = out.sharded ? replicas : s.dataParallel;
    out.shard = out.sharded ? s.dataParallel / replicas : 1;
    if (!out.sharded && expertShard > 1) {
        out.replicate = s.dataParallel / expertShard;
        out.shard = expertShard;
    }
    return out;
}

}  // namespace tapestry
