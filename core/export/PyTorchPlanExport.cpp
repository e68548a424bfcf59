#include "export/PyTorchPlanExport.h"

#include "base/Error.h"
#include "export/ModuleStyleTable.h"
#include "fold/FoldedModel.h"
#include "graph/Graph.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "target/StackRules.h"
#include "target/TrainingStackSettings.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>

namespace tapestry {

namespace {

// The plan document sits between these lines; JSON never holds three quotes in a row.
constexpr std::string_view kDocumentStart = "PLAN_DOCUMENT = r\"\"\"\n";
constexpr std::string_view kDocumentEnd = "\"\"\"\n";
constexpr std::size_t kMaxNodeNotes = 4;

std::string pythonString(const std::string& text)
{
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        if (c == '\n')
            quoted += "\\n";
        else
            quoted += c;
    }
    return quoted + "\"";
}

// ("a", "b"); a one-element tuple keeps its trailing comma.
std::string pythonTuple(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return "(" + text + (items.size() == 1 ? ",)" : ")");
}

std::string pythonStrings(const std::vector<std::string>& names)
{
    std::vector<std::string> quoted;
    for (const std::string& name : names)
        quoted.push_back(pythonString(name));
    return pythonTuple(quoted);
}

// What each stage-mesh axis of the plan is to PyTorch, and what the file cannot write.
struct AxisRoles {
    std::optional<std::size_t> tensor;  // parallelize_module's axis
    std::vector<std::size_t> context;   // ring attention (context_parallel), sequence split
    std::vector<std::size_t> batch;     // batch split
    std::vector<std::string> notes;
};

std::string nodeList(const std::vector<std::string>& names)
{
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kMaxNodeNotes; ++i)
        text += (text.empty() ? "" : ", ") + names[i];
    if (names.size() > kMaxNodeNotes)
        text += " and " + std::to_string(names.size() - kMaxNodeNotes) + " more";
    return text;
}

AxisRoles axisRoles(const FoldedModel& model, const Plan& plan, const std::vector<ModuleStyleTable>& tables)
{
    AxisRoles roles;
    if (!tables.empty())
        roles.tensor = tables.back().axis;
    for (std::size_t t = 0; t + 1 < tables.size(); ++t)
        roles.notes.push_back("the plan splits weights on mesh axis '" + tables[t].axisName +
                              "' too (2-D tensor parallelism); parallelize_module takes one axis: written as a batch axis");
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis) {
        if (axis == roles.tensor)
            continue;
        const ContextParallelVariant variant = contextParallelVariant(plan, model.coarse, axis);
        if (variant == ContextParallelVariant::Ulysses)
            roles.notes.push_back("mesh axis '" + plan.mesh[axis].name +
                                  "' runs DeepSpeed-Ulysses attention; PyTorch's context_parallel is ring attention: "
                                  "written as ring attention");
        (variant == ContextParallelVariant::None ? roles.batch : roles.context).push_back(axis);
    }
    // Nodes that split otherwise than the role says: the batch on a batch axis, the ring
    // pattern on a context axis, a module style on the tensor axis.
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis) {
        const MeshAxis& mesh = plan.mesh[axis];
        if (axis == roles.tensor || mesh.size <= 1)
            continue;
        const bool context = std::find(roles.context.begin(), roles.context.end(), axis) != roles.context.end();
        const Plan reference = makeExpertPlan(context ? ExpertPlanKind::RingAttention : ExpertPlanKind::DataParallel,
                                              model.coarse, {{mesh.name, mesh.size}});
        std::vector<std::string> differing;
        bool experts = false;
        for (const CoarseNode& node : model.coarse.nodes) {
            const AxisSplit split = plan.strategy(node.id).axes[axis];
            experts = experts || split == AxisSplit::Expert;
            if (split != reference.strategy(node.id).axes.back() && split != AxisSplit::Expert)
                differing.push_back("'" + node.name + "' (" + axisSplitName(split) + ")");
        }
        if (experts)
            roles.notes.push_back("mesh axis '" + mesh.name + "' spreads the experts of the mixture-of-experts layers; "
                                  "PyTorch has no expert-parallel style: written with every expert on every rank");
        if (!differing.empty())
            roles.notes.push_back(std::string("on mesh axis '") + mesh.name + "' the file splits " +
                                  (context ? "the sequence for ring attention" : "the batch") + " where the plan splits " +
                                  nodeList(differing));
    }
    if (roles.tensor) {
        std::vector<std::string> unexpressed;
        for (const CoarseNodeId id : tables.back().unexpressed)
            unexpressed.push_back("'" + model.coarse.node(id).name + "' (" +
                                  axisSplitName(plan.strategy(id).axes[*roles.tensor]) + ")");
        if (!unexpressed.empty())
            roles.notes.push_back("no module style splits " + nodeList(unexpressed) + " on tensor-parallel axis '" +
                                  tables.back().axisName + "': replicated there");
    }
    return roles;
}

const char* layoutExpression(BoundaryLayout layout)
{
    return layout == BoundaryLayout::Replicated ? "Replicate()" : "Shard(1)";
}

// "ColwiseParallel(input_layouts=Shard(1))". A column-parallel module whose output is the
// model's keeps it split over the vocabulary as a DTensor, for loss_parallel.
std::string styleExpression(const ModuleStyleEntry& entry, bool& lossParallel)
{
    std::string name;
    BoundaryLayout input = entry.input;
    switch (entry.style) {
    case ModuleStyle::Colwise:
    case ModuleStyle::EmbeddingColwise: name = "ColwiseParallel"; break;
    case ModuleStyle::Rowwise: name = "RowwiseParallel"; break;
    // RowwiseParallel's default input is sharded on the last dim; token ids arrive whole.
    case ModuleStyle::EmbeddingRowwise:
        name = "RowwiseParallel";
        input = BoundaryLayout::Replicated;
        break;
    case ModuleStyle::SequenceParallel: name = "SequenceParallel"; break;
    }
    std::string arguments;
    if (input != BoundaryLayout::Default)
        arguments += std::string("input_layouts=") + layoutExpression(input);
    const bool vocabularySplit = entry.style == ModuleStyle::Colwise && entry.feedsGraphOutput;
    lossParallel = lossParallel || vocabularySplit;
    if (vocabularySplit)
        arguments += std::string(arguments.empty() ? "" : ", ") + "output_layouts=Shard(-1), use_local_output=False";
    else if (entry.output != BoundaryLayout::Default)
        arguments += std::string(arguments.empty() ? "" : ", ") + "output_layouts=" + layoutExpression(entry.output);
    return name + "(" + arguments + ")";
}

const char* scheduleClass(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe: return "ScheduleGPipe";
    case PipelineSchedule::OneFOneB: return "Schedule1F1B";
    case PipelineSchedule::Interleaved: return "ScheduleInterleaved1F1B";
    }
    return "Schedule1F1B";
}

std::vector<std::string> axisNames(const Plan& plan, const std::vector<std::size_t>& axes)
{
    std::vector<std::string> names;
    for (const std::size_t axis : axes)
        names.push_back(plan.mesh[axis].name);
    return names;
}

std::string joinedNames(const std::vector<std::string>& names, const char* separator)
{
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : separator) + name;
    return text;
}

// The modules with parameters outside the blocks, before the first block (the first chunk
// runs them) or after it (the last chunk), by module path.
struct EndModules {
    std::vector<std::string> first;
    std::vector<std::string> last;
};

EndModules endModules(const FoldedModel& model)
{
    std::set<std::size_t> inBlocks;
    std::size_t firstBlockNode = std::numeric_limits<std::size_t>::max();
    for (const BlockInstance* block : modelBlocks(model.families))
        for (const CoarseNodeId id : block->nodes) {
            inBlocks.insert(id.index());
            firstBlockNode = std::min(firstBlockNode, id.index());
        }
    EndModules modules;
    for (const CoarseNode& node : model.coarse.nodes) {
        if (inBlocks.contains(node.id.index()) ||
            (node.kind != CoarseNodeKind::Linear && node.kind != CoarseNodeKind::Embedding &&
             node.kind != CoarseNodeKind::Normalization))
            continue;
        const std::string path = (node.anchor.isValid() ? model.graph().op(node.anchor).scope : node.scope).toModulePath();
        std::vector<std::string>& side = node.id.index() < firstBlockNode ? modules.first : modules.last;
        if (!path.empty() && std::find(side.begin(), side.end(), path) == side.end())
            side.push_back(path);
    }
    return modules;
}

// The Python source after the constants: one function per job, only those the plan needs.
struct PythonParts {
    std::set<std::string> imports;
    std::string constants;
    std::string functions;
};

// The mesh's name for `axes` as one dimension: the axis itself, or the flattened axes
// joined by "_" (device_mesh flattens them).
std::string flatName(const std::vector<std::string>& axes)
{
    return axes.size() == 1 ? axes.front() : joinedNames(axes, "_");
}

void addMeshFunctions(PythonParts& parts, const std::vector<std::string>& dataAxes,
                      const std::vector<std::string>& contextAxes, int replicas)
{
    const std::string dataMeshName = dataAxes.empty() ? std::string() : flatName(dataAxes);
    parts.functions += "\n\ndef device_mesh(device_type=\"cuda\"):\n"
                       "    \"\"\"The plan's mesh over every GPU (one process each), its axes in the plan's order.\"\"\"\n"
                       "    mesh = init_device_mesh(device_type, MESH_SHAPE, mesh_dim_names=MESH_AXES)\n";
    if (dataAxes.size() > 1)
        parts.functions += "    mesh[DATA_AXES]._flatten(" + pythonString(dataMeshName) +
                           ")  # the data-parallel ranks as one dimension, for data_mesh\n";
    if (contextAxes.size() > 1)
        parts.functions += "    mesh[CONTEXT_AXES]._flatten(" + pythonString(flatName(contextAxes)) +
                           ")  # the context-parallel ranks as one dimension, for context_parallel\n";
    parts.functions += "    return mesh\n";
    if (dataMeshName.empty())
        return;
    parts.functions += "\n\ndef data_mesh(mesh):\n"
                       "    \"\"\"The ranks that average their gradients: every batch and context axis, as one dimension\n"
                       "    (FSDP2 shards over it, as the plan shards ZeRO states over all of them).\"\"\"\n"
                       "    return mesh[" + pythonString(dataMeshName) + "]\n";
    if (replicas <= 1)
        return;
    // One DeviceMesh over the same ranks with the data ranks cut in two dimensions, built once
    // (each build makes its process groups).
    parts.imports.insert("from torch.distributed.device_mesh import DeviceMesh");
    parts.functions +=
        "\n\ndef hsdp_mesh(mesh):\n"
        "    \"\"\"HSDP's 2-D mesh of the data ranks: DATA_REPLICAS replicas (the outer ranks) of a shard group of\n"
        "    consecutive ranks of DATA_AXES (fully_shard replicates over the first dimension, shards over the second).\"\"\"\n"
        "    order = [MESH_AXES.index(a) for a in MESH_AXES if a not in DATA_AXES] + [MESH_AXES.index(a) for a in DATA_AXES]\n"
        "    shard = data_mesh(mesh).size() // DATA_REPLICAS\n"
        "    ranks = mesh.mesh.permute(order).reshape(-1, DATA_REPLICAS, shard)\n"
        "    return DeviceMesh(mesh.device_type, ranks, mesh_dim_names=(\"rest\", \"replicate\", \"shard\"))[\"replicate\", \"shard\"]\n";
}

void addLocalBatch(PythonParts& parts, bool context)
{
    parts.imports.insert("import torch");
    parts.functions +=
        "\n\ndef _share(mesh, axes):\n"
        "    \"\"\"This rank's index among the ranks of `axes` (row-major, the first outermost) and their count.\"\"\"\n"
        "    coordinate = dict(zip(MESH_AXES, mesh.get_coordinate()))\n"
        "    index, count = 0, 1\n"
        "    for axis in axes:\n"
        "        size = MESH_SHAPE[MESH_AXES.index(axis)]\n"
        "        index, count = index * size + coordinate[axis], count * size\n"
        "    return index, count\n"
        "\n\ndef local_batch(x, mesh):\n"
        "    \"\"\"This rank's share of a global batch tensor [batch, sequence, ...] (token ids, labels,\n"
        "    positions): the batch split over BATCH_AXES";
    parts.functions += context ? ", the sequence over CONTEXT_AXES as context_parallel\n"
                                 "    shards it (2 x cp chunks; context rank r takes chunks r and 2 cp - 1 - r).\"\"\"\n"
                               : ".\"\"\"\n";
    parts.functions +=
        "    index, count = _share(mesh, BATCH_AXES)\n"
        "    if x.size(0) % count:\n"
        "        raise ValueError(f\"a batch of {x.size(0)} does not split over {count} data-parallel ranks\")\n"
        "    x = x.narrow(0, index * (x.size(0) // count), x.size(0) // count)\n";
    if (context)
        parts.functions +=
            "    index, count = _share(mesh, CONTEXT_AXES)\n"
            "    if x.size(1) % (2 * count):\n"
            "        raise ValueError(f\"a sequence of {x.size(1)} does not split into {2 * count} context-parallel chunks\")\n"
            "    chunks = x.chunk(2 * count, dim=1)\n"
            "    x = torch.cat((chunks[index], chunks[2 * count - 1 - index]), dim=1)\n";
    parts.functions += "    return x\n";
}

// The plan the export runs (pyTorchRunnablePlan) with its stack settings, and what the
// plan asked for that the export does not run as written (stackSettingNotes of the asked
// plan's settings): each computed once.
struct RunnablePlan {
    PlanDocument document;
    TrainingStackSettings settings;
    std::vector<std::string> askedNotes;
};

RunnablePlan runnablePlan(const FoldedModel& model, const PlanDocument& asked)
{
    RunnablePlan runnable{asked, trainingStackSettings(model, asked, 0), {}};
    runnable.askedNotes = stackSettingNotes(TrainingStack::PyTorch, runnable.settings);
    if (runnable.askedNotes.empty())
        return runnable;
    PlanDocument runs = asked;
    runs.workload = withStackImplementations(asked.workload, TrainingStack::PyTorch);
    runs.workload.zeroStage = std::max(2, asked.workload.zeroStage);
    runs.implementations = TrainingStack::PyTorch;
    if (stackInexpressible(TrainingStack::PyTorch, model, runs).empty()) {
        runnable.settings = trainingStackSettings(model, runs, 0);
        runnable.document = std::move(runs);
    }
    return runnable;
}

}  // namespace

PlanDocument pyTorchRunnablePlan(const FoldedModel& model, const PlanDocument& document)
{
    return runnablePlan(model, document).document;
}

std::string exportPyTorchPlan(const FoldedModel& model, const PlanDocument& asked)
{
    RunnablePlan runnable = runnablePlan(model, asked);
    const PlanDocument& document = runnable.document;
    const Graph& graph = model.graph();
    const Plan& plan = document.plan;
    // Plan files are checked when read; a plan built in memory is checked here, so the
    // script never names a mesh of size <= 0 or a device count beyond int.
    const std::vector<MeshAxis> mesh = planMeshAxes(plan);
    std::int64_t devices = 1;
    for (const MeshAxis& axis : mesh) {
        if (axis.size < 1 || devices * axis.size > std::numeric_limits<std::int32_t>::max())
            throw Error(ErrorCode::InvalidMesh, {},
                        "mesh axis '" + axis.name + "' of size " + std::to_string(axis.size) +
                            " gives no device count a script can use");
        devices *= axis.size;
    }
    validatePlan(plan, model.coarse);
    const std::vector<ModuleStyleTable> tables = moduleStyleTables(graph, model.coarse, model.families, plan);
    AxisRoles roles = axisRoles(model, plan, tables);
    for (std::string& note : runnable.askedNotes)
        roles.notes.push_back(std::move(note));
    const TrainingStackSettings& settings = runnable.settings;
    const Workload& w = settings.workload;
    const std::vector<std::string> batchAxes = axisNames(plan, roles.batch);
    const std::vector<std::string> contextAxes = axisNames(plan, roles.context);
    // Batch and context axes in the mesh's order (a sub-mesh names its axes in that order);
    // those of one rank average nothing, and without any other FSDP shards nothing
    // (effectiveZeroStage).
    std::vector<std::size_t> dataAxisIndices = roles.batch;
    dataAxisIndices.insert(dataAxisIndices.end(), roles.context.begin(), roles.context.end());
    std::erase_if(dataAxisIndices, [&](std::size_t axis) { return plan.mesh[axis].size <= 1; });
    std::sort(dataAxisIndices.begin(), dataAxisIndices.end());
    const std::vector<std::string> dataAxes = axisNames(plan, dataAxisIndices);
    const bool blocks = !settings.blockModulePaths.empty();
    const bool checkpoint = blocks && w.recompute != Recomputation::None;
    const bool pipeline = plan.pipeline.active();
    const std::string pipelineAxis = pipeline ? mesh.front().name : std::string();

    PythonParts parts;
    parts.imports.insert("from torch.distributed.device_mesh import init_device_mesh");
    std::string& constants = parts.constants;
    std::vector<std::string> shape;
    std::vector<std::string> names;
    std::string meshText;
    for (const MeshAxis& axis : mesh) {
        shape.push_back(std::to_string(axis.size));
        names.push_back(axis.name);
        meshText += std::string(meshText.empty() ? "" : " x ") + axis.name + "=" + std::to_string(axis.size);
    }
    constants += "MESH_SHAPE = " + pythonTuple(shape) + "\nMESH_AXES = " + pythonStrings(names) + "\n";
    if (roles.tensor)
        constants += "TENSOR_AXIS = " + pythonString(plan.mesh[*roles.tensor].name) + "  # parallelize_module's axis\n";
    constants += "BATCH_AXES = " + pythonStrings(batchAxes) + "  # the batch splits over these\n";
    if (!contextAxes.empty())
        constants += "CONTEXT_AXES = " + pythonStrings(contextAxes) + "  # the sequence splits over these (ring attention)\n";
    if (!dataAxes.empty())
        constants += "DATA_AXES = " + pythonStrings(dataAxes) + "  # the batch and context axes: gradients average over these\n";
    if (!dataAxes.empty() && w.zeroStage >= 2 && w.zeroReplicas > 1)
        constants += "DATA_REPLICAS = " + std::to_string(w.zeroReplicas) + "  # HSDP: replicas of a shard group of the data ranks\n";

    // Tensor parallelism: the module styles of the tensor-parallel axis.
    bool lossParallel = false;
    std::set<std::string> styleNames;
    if (roles.tensor) {
        constants += "\n# Module path (\"*\": every layer) -> parallel style on TENSOR_AXIS.\nTENSOR_PLAN = {\n";
        for (const ModuleStyleEntry& entry : tables.back().entries) {
            const std::string expression = styleExpression(entry, lossParallel);
            styleNames.insert(expression.substr(0, expression.find('(')));
            constants += "    " + pythonString(entry.modulePath) + ": " + expression + ",\n";
        }
        constants += "}\n";
        if (lossParallel)
            styleNames.insert("loss_parallel");
        styleNames.insert("parallelize_module");
        parts.imports.insert("from torch.distributed.tensor.parallel import " + joinedNames({styleNames.begin(), styleNames.end()}, ", "));
        std::set<std::string> layouts;
        for (const char* layout : {"Replicate(", "Shard("})
            if (constants.find(layout) != std::string::npos)
                layouts.insert(std::string(layout).substr(0, std::string(layout).size() - 1));
        if (!layouts.empty())
            parts.imports.insert("from torch.distributed.tensor import " + joinedNames({layouts.begin(), layouts.end()}, ", "));
    }
    if (blocks && (checkpoint || !dataAxes.empty() || pipeline)) {
        constants += "\n# The model's repeated blocks, in order.\nBLOCKS = [\n";
        for (const std::string& path : settings.blockModulePaths)
            constants += "    " + pythonString(path) + ",\n";
        constants += "]\n";
    }
    std::int64_t microBatches = 1;
    if (pipeline) {
        const PipelineLayout& layout = settings.pipeline;
        microBatches = std::max<std::int64_t>(1, w.batch / (w.microBatch * settings.dataParallel));
        const EndModules ends = endModules(model);
        constants += "\n# The pipeline over mesh axis " + pythonString(pipelineAxis) + ": chunk c holds these blocks and runs "
                     "on pipeline rank c % PIPELINE_STAGES.\nPIPELINE_STAGES = " + std::to_string(layout.stages) +
                     "\nPIPELINE_CHUNKS = [\n";
        for (std::size_t c = 0; c < layout.chunkStarts.size(); ++c) {
            const std::size_t end = c + 1 < layout.chunkStarts.size() ? layout.chunkStarts[c + 1] : settings.blockModulePaths.size();
            std::vector<std::string> chunk(settings.blockModulePaths.begin() + static_cast<std::ptrdiff_t>(layout.chunkStarts[c]),
                                           settings.blockModulePaths.begin() + static_cast<std::ptrdiff_t>(end));
            constants += "    " + pythonStrings(chunk) + ",\n";
        }
        constants += "]\nFIRST_MODULES = " + pythonStrings(ends.first) + "  # before the blocks: the first chunk's\n" +
                     "LAST_MODULES = " + pythonStrings(ends.last) + "  # after the blocks: the last chunk's\n" +
                     "MICRO_BATCHES = " + std::to_string(microBatches) + "  # per step, of " +
                     std::to_string(w.microBatch) + " sequences per data-parallel rank\n";
    }

    // Functions.
    const int replicas = !dataAxes.empty() && w.zeroStage >= 2 ? std::max(1, w.zeroReplicas) : 1;
    addMeshFunctions(parts, dataAxes, contextAxes, replicas);
    addLocalBatch(parts, !contextAxes.empty());
    if (checkpoint) {
        parts.imports.insert("from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper");
        if (w.recompute == Recomputation::Selective) {
            parts.imports.insert("from functools import partial");
            parts.imports.insert("import torch");
            parts.imports.insert("from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts");
            parts.functions +=
                "\n\n# Attention's core: its matmuls (batched, or fused in scaled_dot_product_attention) and softmax.\n"
                "_ATTENTION_CORE = {\n"
                "    torch.ops.aten.bmm.default,\n"
                "    torch.ops.aten._softmax.default,\n"
                "    torch.ops.aten._scaled_dot_product_flash_attention.default,\n"
                "    torch.ops.aten._scaled_dot_product_efficient_attention.default,\n"
                "    torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default,\n"
                "}\n"
                "\n\ndef _recompute_attention_core(ctx, op, *args, **kwargs):\n"
                "    return CheckpointPolicy.PREFER_RECOMPUTE if op in _ATTENTION_CORE else CheckpointPolicy.MUST_SAVE\n"
                "\n\ndef _checkpoint(block):\n"
                "    \"\"\"Selective recomputation: backward recomputes attention's core and keeps every other output.\"\"\"\n"
                "    policy = partial(create_selective_checkpoint_contexts, _recompute_attention_core)\n"
                "    return checkpoint_wrapper(block, context_fn=policy)\n";
        } else {
            parts.functions += "\n\ndef _checkpoint(block):\n"
                               "    \"\"\"Full recomputation: only the block's input is kept for backward.\"\"\"\n"
                               "    return checkpoint_wrapper(block)\n";
        }
    }
    if (!dataAxes.empty())
        parts.imports.insert("from torch.distributed.fsdp import fully_shard");
    if (checkpoint || (blocks && !dataAxes.empty()))
        parts.functions += "\n\ndef _blocks(module):\n"
                           "    \"\"\"(path, block) of each of BLOCKS that `module` holds (a pipeline chunk holds its own).\"\"\"\n"
                           "    for path in BLOCKS:\n"
                           "        parent, _, name = path.rpartition(\".\")\n"
                           "        block = getattr(module.get_submodule(parent), name, None)\n"
                           "        if block is not None:\n"
                           "            yield path, block\n";
    if (roles.tensor && pipeline)
        parts.functions += "\n\ndef _held(module, plan):\n"
                           "    \"\"\"The entries of `plan` for modules that `module` holds (a pipeline chunk lacks some).\"\"\"\n"
                           "    held = {}\n"
                           "    for path, style in plan.items():\n"
                           "        try:\n"
                           "            module.get_submodule(path.split(\".*\")[0])\n"
                           "        except AttributeError:\n"
                           "            continue\n"
                           "        held[path] = style\n"
                           "    return held\n";

    const std::string reshard = w.zeroStage >= 3 ? "True" : "False";
    std::string apply = "\n\ndef apply(model, mesh):\n    \"\"\"Parallelizes `model`";
    apply += pipeline ? " (or one of stage_modules' chunks)" : "";
    apply += " in place as the plan does and returns it.\"\"\"\n";
    if (roles.tensor)
        apply += std::string("    model = parallelize_module(model, mesh[TENSOR_AXIS], ") +
                 (pipeline ? "_held(model, TENSOR_PLAN)" : "TENSOR_PLAN") + ")\n";
    if (checkpoint)
        apply += "    for path, block in list(_blocks(model)):\n"
                 "        parent, _, name = path.rpartition(\".\")\n"
                 "        model.get_submodule(parent).register_module(name, _checkpoint(block))\n";
    if (!dataAxes.empty()) {
        std::string shardMesh = "data_mesh(mesh)";
        if (replicas > 1) {
            apply += "    shard_mesh = hsdp_mesh(mesh)\n";
            shardMesh = "shard_mesh";
        }
        if (blocks)
            apply += "    for _, block in _blocks(model):\n"
                     "        fully_shard(block, mesh=" + shardMesh + ", reshard_after_forward=" + reshard + ")\n";
        apply += "    fully_shard(model, mesh=" + shardMesh + ", reshard_after_forward=" + reshard + ")\n";
    }
    parts.functions += apply + "    return model\n";

    if (!contextAxes.empty() || lossParallel) {
        parts.imports.insert("import contextlib");
        parts.functions += "\n\n@contextlib.contextmanager\ndef step_context(mesh):\n    \"\"\"Run forward, loss and backward inside:";
        if (!contextAxes.empty()) {
            parts.imports.insert("from torch.distributed.tensor.experimental import context_parallel");
            parts.functions += " ring attention over CONTEXT_AXES (context_parallel: its\n    sequence shards are "
                               "local_batch's)";
        }
        if (lossParallel)
            parts.functions += std::string(contextAxes.empty() ? "" : ",\n   ") +
                               " the loss over logits split by vocabulary (loss_parallel)";
        parts.functions += ".\"\"\"\n    with contextlib.ExitStack() as stack:\n";
        if (!contextAxes.empty())
            parts.functions += std::string("        stack.enter_context(context_parallel(mesh[") +
                               pythonString(flatName(contextAxes)) +
                               "]))\n";
        if (lossParallel)
            parts.functions += "        stack.enter_context(loss_parallel())\n";
        parts.functions += "        yield\n";
    }
    if (pipeline) {
        parts.imports.insert("import copy");
        parts.imports.insert("from torch.distributed.pipelining import PipelineStage, " +
                             std::string(scheduleClass(settings.pipeline.schedule)));
        const bool interleaved = settings.pipeline.virtualStages > 1;
        parts.functions +=
            "\n\ndef stage_modules(model, mesh):\n"
            "    \"\"\"This pipeline rank's chunks of `model` (chunk c = rank + k x PIPELINE_STAGES): copies that\n"
            "    keep the chunk's blocks, FIRST_MODULES in the first chunk and LAST_MODULES in the last, and set\n"
            "    the others to None. The model's forward must skip a module that is None (torchtitan's\n"
            "    convention): the first chunk takes token ids, the others the hidden states.\"\"\"\n"
            "    rank = mesh.get_coordinate()[MESH_AXES.index(" + pythonString(pipelineAxis) + ")]\n"
            "    chunks = []\n"
            "    for c in range(rank, len(PIPELINE_CHUNKS), PIPELINE_STAGES):\n"
            "        keep = set(PIPELINE_CHUNKS[c])\n"
            "        keep |= set(FIRST_MODULES) if c == 0 else set()\n"
            "        keep |= set(LAST_MODULES) if c == len(PIPELINE_CHUNKS) - 1 else set()\n"
            "        chunk = copy.deepcopy(model)\n"
            "        for path in BLOCKS + list(FIRST_MODULES) + list(LAST_MODULES):\n"
            "            if path not in keep:\n"
            "                parent, _, name = path.rpartition(\".\")\n"
            "                setattr(chunk.get_submodule(parent) if parent else chunk, name, None)\n"
            "        chunks.append(chunk)\n"
            "    return chunks\n"
            "\n\ndef pipeline_schedule(chunks, mesh, device, loss_fn):\n"
            "    \"\"\"The plan's schedule over this rank's chunks (stage_modules, then apply): step(tokens) on the\n"
            "    first pipeline rank, step(target=labels, losses=[]) on the last, step() between, with\n"
            "    local_batch's share; MICRO_BATCHES micro-batches. The schedule sums the micro-batches'\n"
            "    gradients, so each micro-batch's loss counts 1 / MICRO_BATCHES: the losses it reports add up\n"
            "    to the step's mean loss.\"\"\"\n"
            "\n"
            "    def scaled_loss(output, target):\n"
            "        return loss_fn(output, target) / MICRO_BATCHES\n"
            "\n"
            "    rank = mesh.get_coordinate()[MESH_AXES.index(" + pythonString(pipelineAxis) + ")]\n"
            "    group = mesh[" + pythonString(pipelineAxis) + "].get_group()\n"
            "    stages = [PipelineStage(chunk, c, len(PIPELINE_CHUNKS), device, group=group)\n"
            "              for chunk, c in zip(chunks, range(rank, len(PIPELINE_CHUNKS), PIPELINE_STAGES))]\n"
            "    return " + scheduleClass(settings.pipeline.schedule) + (interleaved ? "(stages" : "(stages[0]") +
            ", n_microbatches=MICRO_BATCHES, loss_fn=scaled_loss)\n";
    }

    // The header: what the file does, and how a step calls it.
    std::string text = "# PyTorch plan \"" + commentLine(plan.name) + "\" exported by Tapestry";
    if (!graph.info().sourcePath.empty())
        text += " for " + commentLine(std::filesystem::path(graph.info().sourcePath).filename().string());
    text += ".\n# Mesh " + meshText + " (" + std::to_string(devices) + " GPUs, one process each, e.g. torchrun "
            "--nproc-per-node " + std::to_string(devices) + "):\n";
    if (pipeline)
        text += "#   pipeline over \"" + pipelineAxis + "\": " + std::to_string(settings.pipeline.stages) + " stages" +
                (settings.pipeline.virtualStages > 1 ? " x " + std::to_string(settings.pipeline.virtualStages) + " chunks" : "") +
                ", " + scheduleClass(settings.pipeline.schedule) + ", " + std::to_string(microBatches) +
                " micro-batches of " + std::to_string(w.microBatch) + "\n";
    if (roles.tensor)
        text += "#   tensor parallel over \"" + plan.mesh[*roles.tensor].name + "\" (parallelize_module with TENSOR_PLAN" +
                (lossParallel ? "; the logits stay split by vocabulary: loss_parallel" : "") + ")\n";
    if (!batchAxes.empty())
        text += "#   the batch split over " + joinedNames(batchAxes, ", ") + "\n";
    if (!contextAxes.empty())
        text += "#   the sequence split over " + joinedNames(contextAxes, ", ") + " (ring attention: context_parallel)\n";
    if (!dataAxes.empty())
        text += "#   gradients averaged over " + joinedNames(dataAxes, " x ") + ": FSDP2 fully_shard over " +
                (w.zeroStage >= 2 && w.zeroReplicas > 1
                     ? "hsdp_mesh() (HSDP, " + std::to_string(w.zeroReplicas) + " replicas)"
                     : std::string("data_mesh()")) +
                (w.zeroStage >= 3 ? " (ZeRO 3)\n" : ", parameters kept gathered through the step (ZeRO 2)\n");
    if (checkpoint)
        text += w.recompute == Recomputation::Full ? "#   full recomputation: checkpoint_wrapper around every block\n"
                                                   : "#   selective recomputation: checkpoint_wrapper recomputing attention's core\n";
    if (w.recompute != Recomputation::None && !blocks)
        text += "#   (the model has no repeated blocks to checkpoint: recomputation is left out)\n";
    // The plan was priced with the blocks' linear layers in FP8: torchao converts them.
    if (w.fp8 == Fp8Recipe::PerTensor)
        text += "#   FP8 (tensorwise scaling) in the blocks' linear layers: before apply(), convert them with\n"
                "#   torchao.float8.convert_to_float8_training(model, module_filter_fn=...) leaving the output\n"
                "#   head in bf16, as torchtitan's float8 converter does\n";
    else if (w.fp8 == Fp8Recipe::Block)
        text += "#   MXFP8 in the blocks' linear layers: before apply(), convert them with torchao's\n"
                "#   quantize_(model, torchao.prototype.mx_formats.MXLinearConfig.from_recipe_name(\"mxfp8_cublas\"),\n"
                "#   filter_fn=...) leaving the output head in bf16, as torchtitan's mx converter does\n";
    // The file sets no dtype (and no FSDP2 MixedPrecisionPolicy): the model trains in the dtype it
    // is given, so the header says what the price assumed.
    const bool fp32 = w.computeType == DataType::Float32;
    const std::string weightType = w.computeType == DataType::Float16 ? "fp16" : fp32 ? "fp32" : "bf16";
    const int weightBytes = fp32 ? 4 : 2;
    const int gradientBytes = w.fp32MainGradients ? 4 : weightBytes;
    // In fp32 the optimizer's 4-byte copy of the weights is priced though no master is needed.
    text += "#   priced with " + weightType +
            (gradientBytes == weightBytes ? " weights and gradients" : " weights, fp32 gradients") +
            (fp32                                                    ? ", a second fp32 copy of the weights and "
             : w.optimizerStep == OptimizerStep::FusedRemainders ? ", 16-bit remainders of fp32 master weights and "
                                                                 : ", fp32 master weights and ") +
            (w.optimizer == OptimizerKind::AdamMixedPrecision ? "Adam moments" : "momentum") + " (" +
            std::to_string(weightBytes) + " + " + std::to_string(gradientBytes) + " + " +
            std::to_string(optimizerStateBytesPerParameter(w.optimizer, w.optimizerStep)) + " bytes per\n#   parameter); this file casts nothing: " +
            (fp32 ? std::string("the model trains in fp32\n")
                  : "cast the model to " + weightType + ", keep fp32 masters in the optimizer" +
                        (w.optimizerStep == OptimizerStep::MasterCopies
                             ? std::string(" (torch.optim's fused=True),\n#   each gradient cast to "
                                           "an fp32 copy before the step, the masters copied into the weights after "
                                           "it\n")
                             : std::string("\n")));
    text += "# A training step:\n"
            "#   mesh = device_mesh()\n";
    if (pipeline)
        text += "#   chunks = [apply(chunk, mesh) for chunk in stage_modules(model, mesh)]\n"
                "#   schedule = pipeline_schedule(chunks, mesh, device, loss_fn)\n";
    else
        text += "#   model = apply(model, mesh)\n";
    text += "#   tokens, labels = local_batch(tokens, mesh), local_batch(labels, mesh)\n";
    const bool stepContext = !contextAxes.empty() || lossParallel;
    const std::string indent = stepContext ? "#       " : "#   ";
    if (stepContext)
        text += "#   with step_context(mesh):\n";
    if (pipeline)
        text += indent + "schedule.step(...)  # as pipeline_schedule says\n";
    else
        text += indent + "loss = loss_fn(model(tokens), labels)\n" + indent + "loss.backward()\n";
    if (roles.tensor)
        text += "# ColwiseParallel shards nn.Linear.weight [out_features, in_features] on dim 0, RowwiseParallel on\n"
                "# dim 1 (the ONNX MatMul operand [in, out] transposed); on nn.Embedding RowwiseParallel shards the\n"
                "# vocabulary. Shard(1) is the sequence dim of [batch, sequence, hidden] activations. Attention must\n"
                "# reshape its projections with -1 heads (transformers' Llama does).\n";
    if (!roles.notes.empty()) {
        text += document.workload == asked.workload
                    ? "#\n# Not expressible in PyTorch (PLAN_DOCUMENT is the plan as priced; the code runs it as said):\n"
                    : "#\n# Not expressible in PyTorch (PLAN_DOCUMENT is the plan the code runs):\n";
        for (const std::string& note : roles.notes)
            text += "#   - " + commentLine(note) + "\n";
    }
    text += "\n";
    for (const std::string& line : parts.imports)
        if (line.starts_with("import "))
            text += line + "\n";
    for (const std::string& line : parts.imports)
        if (line.starts_with("from ") && !line.starts_with("from torch"))
            text += line + "\n";
    for (const std::string& line : parts.imports)
        if (line.starts_with("from torch"))
            text += line + "\n";
    text += document.workload == asked.workload && !roles.notes.empty()
                ? "\n# The plan as Tapestry priced it (tapestry-cli import-plan reads it back).\n"
                : "\n# The plan this module runs (tapestry-cli import-plan reads it back).\n";
    text += std::string(kDocumentStart) + planToJson(document, model.coarse, model.families);
    if (!text.ends_with('\n'))
        text += '\n';
    text += std::string(kDocumentEnd) + "\n" + parts.constants + parts.functions;
    return text;
}

std::optional<PlanDocument> importPyTorchPlanExport(std::string_view text, const std::string& fileName,
                                                    const FoldedModel& model)
{
    const std::size_t start = text.find(kDocumentStart);
    if (start == std::string_view::npos || (start > 0 && text[start - 1] != '\n'))
        return std::nullopt;
    const std::size_t json = start + kDocumentStart.size();
    const std::size_t end = text.find(kDocumentEnd, json);
    if (end == std::string_view::npos)
        throw Error(ErrorCode::InvalidPlan, fileName, "PLAN_DOCUMENT has no closing \"\"\"");
    return planFromJson(text.substr(json, end - json), fileName, model.coarse, model.families);
}

}  // namespace tapestry
