#include "export/PyTorchPlanExport.h"

#include "base/Error.h"
#include "export/ModuleStyleTable.h"
#include "target/TrainingStackSettings.h"
#include "fold/FoldedModel.h"
#include "graph/Graph.h"
#include "plan/ParallelDegrees.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>

namespace tapestry {

namespace {

std::string pythonString(const std::string& text)
{
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    return quoted + "\"";
}

const char* layoutExpression(BoundaryLayout layout)
{
    return layout == BoundaryLayout::Replicated ? "Replicate()" : "Shard(1)";
}

// "ColwiseParallel(output_layouts=Replicate())", noting the names it needs.
std::string styleExpression(const ModuleStyleEntry& entry, std::set<std::string>& used)
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
    used.insert(name);
    std::string arguments;
    for (const auto& [keyword, layout] : {std::pair{"input_layouts", input}, std::pair{"output_layouts", entry.output}}) {
        if (layout == BoundaryLayout::Default)
            continue;
        used.insert(layout == BoundaryLayout::Replicated ? "Replicate" : "Shard");
        arguments += std::string(arguments.empty() ? "" : ", ") + keyword + "=" + layoutExpression(layout);
    }
    return name + "(" + arguments + ")";
}

std::string joined(const std::set<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
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

// What the file does besides tensor parallelism: FSDP for ZeRO 2 and 3, activation
// checkpointing per block, the pipeline's split points.
struct TrainingCode {
    std::string comments;     // "# ..." lines of the header
    std::set<std::string> imports;
    std::string definitions;  // BLOCKS, SPLIT_SPEC, helpers
    std::string applyLines;   // apply()'s statements after parallelize_module
    std::string applyDoc;     // what they do, for apply()'s docstring
};

TrainingCode trainingCode(const TrainingStackSettings& settings, const Plan& plan,
                          const std::vector<std::string>& dataAxes)
{
    TrainingCode code;
    const Workload& w = settings.workload;
    const bool blocks = !settings.blockModulePaths.empty();
    const bool checkpoint = blocks && w.recompute != Recomputation::None;
    const bool fsdp = w.zeroStage >= 2 && !dataAxes.empty();
    const std::string dataMesh = dataAxes.empty() ? std::string() : "mesh[" + pythonString(dataAxes.back()) + "]";
    if (dataAxes.size() > 1)
        code.comments += "# The plan has several data-parallel axes; FSDP and DDP here use the last, \"" +
                         dataAxes.back() + "\".\n";
    if (w.zeroStage >= 2 && dataAxes.empty())
        code.comments += "# ZeRO stage " + std::to_string(w.zeroStage) +
                         ": the plan has no data-parallel axis to shard over, so nothing is sharded.\n";
    if (w.zeroStage == 1 && !dataAxes.empty())
        code.comments += "# ZeRO stage 1: wrap the model in DistributedDataParallel over " + dataMesh +
                         " and shard the optimizer\n# states with torch.distributed.optim.ZeroRedundancyOptimizer("
                         "..., process_group=" + dataMesh + ".get_group()).\n";
    if (fsdp) {
        code.comments += "# ZeRO stage " + std::to_string(w.zeroStage) +
                         ": apply() shards every block and the root with FSDP2's fully_shard (torch >= 2.6)" +
                         (w.zeroStage == 2 ? ",\n# keeping parameters gathered from forward to backward "
                                             "(reshard_after_forward=False).\n"
                                           : ".\n");
        code.imports.insert("from torch.distributed.fsdp import fully_shard");
    }
    if (w.recompute != Recomputation::None && !blocks)
        code.comments += "# The model has no repeated blocks to checkpoint: recomputation is left out.\n";
    if (checkpoint) {
        code.imports.insert("from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper");
        code.comments += w.recompute == Recomputation::Full
                             ? "# Full recomputation: apply() wraps every block in checkpoint_wrapper (only its input is kept).\n"
                             : "# Selective recomputation: apply() wraps every block in checkpoint_wrapper with a policy that\n"
                               "# recomputes attention's core (scores, softmax, weighted sum) and keeps every other output.\n";
    }
    if (blocks && (checkpoint || fsdp || plan.pipeline.active())) {
        code.definitions += "\n# The model's repeated blocks, in order.\nBLOCKS = [\n";
        for (const std::string& path : settings.blockModulePaths)
            code.definitions += "    " + pythonString(path) + ",\n";
        code.definitions += "]\n";
    }
    if (plan.pipeline.active()) {
        const PipelineLayout& pipeline = settings.pipeline;
        const std::int64_t microBatches =
            std::max<std::int64_t>(1, w.batch / (w.microBatch * settings.dataParallel));
        code.imports.insert("from torch.distributed.pipelining import SplitPoint");
        code.comments += "# Pipeline: " + std::to_string(pipeline.stages) + " stages (mesh[\"pp\"])" +
                         (pipeline.virtualStages > 1 ? " x " + std::to_string(pipeline.virtualStages) + " chunks each" : "") +
                         ", schedule " + scheduleClass(pipeline.schedule) + ", " + std::to_string(microBatches) +
                         " micro-batches of " + std::to_string(w.microBatch) +
                         ".\n"
                         "# torch.distributed.pipelining splits the model before each module of SPLIT_SPEC:\n"
                         "#   pipe = pipeline(model, mb_args=(micro_batch,), split_spec=SPLIT_SPEC)\n"
                         "#   stages = [pipe.build_stage(c, device, group=mesh[\"pp\"].get_group())\n"
                         "#             for c in range(rank_in_pp, pipe.num_stages, " +
                         std::to_string(pipeline.stages) +
                         ")]\n"
                         "#   schedule = " + scheduleClass(pipeline.schedule) +
                         (pipeline.virtualStages > 1 ? "(stages" : "(stages[0]") + ", n_microbatches=" +
                         std::to_string(microBatches) + ", loss_fn=...)\n"
                         "# apply() then parallelizes each stage's module (stage.submod): it finds the blocks it holds.\n";
        code.definitions += "\n# Chunk c of the pipeline starts at its block; chunk c runs on pipeline stage c mod " +
                            std::to_string(pipeline.stages) + ".\nSPLIT_SPEC = {\n";
        for (std::size_t c = 1; c < pipeline.chunkStarts.size(); ++c)
            code.definitions +=
                "    " + pythonString(settings.blockModulePaths.at(pipeline.chunkStarts[c])) + ": SplitPoint.BEGINNING,\n";
        code.definitions += "}\n";
    }
    if (w.recompute == Recomputation::Selective && checkpoint) {
        code.imports.insert("from functools import partial");
        code.imports.insert("import torch");
        code.imports.insert("from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts");
        code.definitions +=
            "\n# Attention's core: its matmuls (batched, or fused in scaled_dot_product_attention) and softmax.\n"
            "_ATTENTION_CORE = {\n"
            "    torch.ops.aten.bmm.default,\n"
            "    torch.ops.aten._softmax.default,\n"
            "    torch.ops.aten._scaled_dot_product_flash_attention.default,\n"
            "    torch.ops.aten._scaled_dot_product_efficient_attention.default,\n"
            "}\n\n\n"
            "def _recompute_attention_core(ctx, op, *args, **kwargs):\n"
            "    return CheckpointPolicy.PREFER_RECOMPUTE if op in _ATTENTION_CORE else CheckpointPolicy.MUST_SAVE\n";
    }
    if (checkpoint || fsdp)
        code.definitions += "\n\ndef _blocks(module):\n"
                            "    \"\"\"(path, block) of each of BLOCKS that `module` holds (a pipeline stage holds its own).\"\"\"\n"
                            "    for path in BLOCKS:\n"
                            "        try:\n"
                            "            yield path, module.get_submodule(path)\n"
                            "        except AttributeError:\n"
                            "            continue\n";
    if (checkpoint) {
        code.definitions += "\n\ndef _checkpoint(block):\n";
        code.definitions += w.recompute == Recomputation::Full
                                ? "    return checkpoint_wrapper(block)\n"
                                : "    policy = partial(create_selective_checkpoint_contexts, _recompute_attention_core)\n"
                                  "    return checkpoint_wrapper(block, context_fn=policy)\n";
        code.applyLines += "    for path, block in list(_blocks(model)):\n"
                           "        parent, _, name = path.rpartition(\".\")\n"
                           "        model.get_submodule(parent).register_module(name, _checkpoint(block))\n";
        code.applyDoc += " Wraps each block in checkpoint_wrapper.";
    }
    if (fsdp) {
        const std::string reshard = w.zeroStage == 2 ? "False" : "True";
        code.applyLines += "    for _, block in _blocks(model):\n"
                           "        fully_shard(block, mesh=" + dataMesh + ", reshard_after_forward=" + reshard + ")\n"
                           "    fully_shard(model, mesh=" + dataMesh + ", reshard_after_forward=" + reshard + ")\n";
        code.applyDoc += " Shards the blocks and the root with FSDP over " + dataMesh + ".";
    }
    return code;
}

}  // namespace

std::string exportPyTorchPlan(const FoldedModel& model, const PlanDocument& document)
{
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
    std::string shape;
    std::string names;
    std::string meshText;
    for (const MeshAxis& axis : mesh) {
        shape += std::to_string(axis.size) + ", ";
        names += pythonString(axis.name) + ", ";
        meshText += std::string(meshText.empty() ? "" : " x ") + axis.name + "=" + std::to_string(axis.size);
    }
    if (mesh.size() > 1) {  // a one-element tuple keeps its trailing comma
        shape.resize(shape.size() - 2);
        names.resize(names.size() - 2);
    } else if (!mesh.empty()) {
        shape.pop_back();
        names.pop_back();
    }

    std::set<std::string> tensorNames;
    std::set<std::string> parallelNames;
    std::string body;
    for (const ModuleStyleTable& table : tables) {
        const std::string variable = tables.size() == 1 ? "plan" : "plan_" + table.axisName;
        if (tables.size() > 1)
            body += "\n# Tensor parallel over mesh axis \"" + table.axisName + "\".";
        body += "\n" + variable + " = {\n";
        for (const ModuleStyleEntry& entry : table.entries) {
            std::set<std::string> used;
            const std::string expression = styleExpression(entry, used);
            for (const std::string& name : used)
                (name == "Replicate" || name == "Shard" ? tensorNames : parallelNames).insert(name);
            body += "    " + pythonString(entry.modulePath) + ": " + expression + ",\n";
        }
        body += "}\n";
        // Batch splits on this axis are data parallelism (FSDP/DDP over it), one line for
        // all of them; anything else no module style carries is listed by name.
        std::size_t dataParallel = 0;
        std::string others;
        for (const CoarseNodeId id : table.unexpressed) {
            const AxisSplit split = plan.strategy(id).axes[table.axis];
            if (split == AxisSplit::Batch) {
                ++dataParallel;
                continue;
            }
            others += "#   " + commentLine(model.coarse.node(id).name) + " (" + axisSplitName(split) + ")\n";
        }
        if (dataParallel > 0)
            body += "# " + std::to_string(dataParallel) + " other coarse nodes split their batch on \"" + table.axisName +
                    "\": data parallelism, wrap the model with FSDP or DDP over mesh[\"" + table.axisName + "\"].\n";
        if (!others.empty())
            body += "# Not expressible as a module style, so replicated here although the plan splits them on \"" +
                    table.axisName + "\":\n" + others;
    }

    std::vector<std::string> dataAxes;  // the stage mesh's axes without tensor parallelism
    for (const MeshAxis& axis : plan.mesh)
        if (axis.size > 1 && std::none_of(tables.begin(), tables.end(),
                                          [&](const ModuleStyleTable& t) { return t.axisName == axis.name; }))
            dataAxes.push_back(axis.name);
    const TrainingStackSettings settings = trainingStackSettings(model, document, 0);
    const TrainingCode training = trainingCode(settings, plan, dataAxes);
    const bool sharded = training.imports.contains("from torch.distributed.fsdp import fully_shard");

    std::string text;
    text += "# Tensor-parallel plan \"" + commentLine(plan.name) + "\" exported by Tapestry";
    if (!graph.info().sourcePath.empty())
        text += " for " + commentLine(std::filesystem::path(graph.info().sourcePath).filename().string());
    text += ".\n# Mesh " + meshText + " (" + std::to_string(devices) +
            " GPUs): run one process per GPU, e.g. torchrun --nproc-per-node " + std::to_string(devices) + ".\n";
    if (!tables.empty()) {
        text += "#\n"
                "# Keys are module paths (\"*\": every layer). ColwiseParallel shards nn.Linear.weight, stored\n"
                "# [out_features, in_features], on dim 0 (Shard(0)); RowwiseParallel on dim 1 (Shard(1)). The\n"
                "# ONNX graph holds the same weight transposed, as the MatMul operand [in, out]: column parallel\n"
                "# splits that operand's columns, row parallel its rows. On nn.Embedding, RowwiseParallel\n"
                "# shards the vocabulary. Shard(1) is the sequence dim of [batch, sequence, hidden]\n"
                "# activations (sequence parallelism); Replicate() gathers or feeds a whole tensor.\n"
                "# Attention modules must reshape their projections with -1 heads (transformers' Llama\n"
                "# does) or have their head counts divided by the tensor-parallel size.\n";
    }
    for (std::size_t a = 0; a < plan.mesh.size(); ++a) {
        const std::string& axis = plan.mesh[a].name;
        if (std::find(dataAxes.begin(), dataAxes.end(), axis) == dataAxes.end())
            continue;
        const ContextParallelVariant variant = contextParallelVariant(plan, model.coarse, a);
        const bool experts = std::any_of(plan.strategies.begin(), plan.strategies.end(),
                                         [a](const NodeStrategy& s) { return s.axes[a] == AxisSplit::Expert; });
        if (variant == ContextParallelVariant::Ring)
            text += "# Mesh axis \"" + axis + "\" is context parallel (ring attention): run forward and backward inside "
                    "torch.distributed.tensor.experimental.context_parallel(mesh[" + pythonString(axis) +
                    "], buffers=[tokens, labels], buffer_seq_dims=[1, 1]).\n";
        if (variant == ContextParallelVariant::Ulysses)
            text += "# Mesh axis \"" + axis + "\" splits the sequence with DeepSpeed-Ulysses attention (all-to-alls to "
                    "a head split): not expressible here; PyTorch's context_parallel runs ring attention instead.\n";
        if (experts)
            text += "# Mesh axis \"" + axis + "\" spreads the experts of each mixture-of-experts layer (expert "
                    "parallelism): not expressible as a module style; shard the experts over mesh[" +
                    pythonString(axis) + "] and route tokens with all-to-alls (torchtitan's ExpertParallel does).\n";
        if (variant == ContextParallelVariant::None && !sharded)
            text += "# Mesh axis \"" + axis + "\" is data parallel" + (experts ? " for everything else" : "") +
                    ": wrap the result of apply() with DDP over mesh[" + pythonString(axis) + "].\n";
    }
    if (tables.empty())
        text += "# The plan is pure data parallel: no module is sharded, so the plan below is empty.\n";
    if (!training.comments.empty())
        text += "#\n" + training.comments;
    text += "\n";
    for (const std::string& line : training.imports)
        if (line.starts_with("import ") || line.starts_with("from functools"))
            text += line + "\n";
    text += "from torch.distributed.device_mesh import init_device_mesh\n";
    if (!tensorNames.empty())
        text += "from torch.distributed.tensor import " + joined(tensorNames) + "\n";
    parallelNames.insert("parallelize_module");
    if (!tables.empty())
        text += "from torch.distributed.tensor.parallel import " + joined(parallelNames) + "\n";
    for (const std::string& line : training.imports)
        if (line.starts_with("from torch."))
            text += line + "\n";
    text += "\nmesh = init_device_mesh(\"cuda\", (" + shape + "), mesh_dim_names=(" + names + "))\n";
    text += tables.empty() ? "\nplan = {}\n" : body;
    text += training.definitions;

    text += "\n\ndef apply(model):\n";
    if (tables.empty()) {
        text += "    \"\"\"No module to shard in a data-parallel plan." + training.applyDoc + " Returns `model`.\"\"\"\n";
    } else {
        const ModuleStyleTable& applied = tables.back();
        const std::string variable = tables.size() == 1 ? "plan" : "plan_" + applied.axisName;
        text += "    \"\"\"Shards `model` in place over mesh[" + pythonString(applied.axisName) + "]." + training.applyDoc +
                " Returns it.";
        if (tables.size() > 1)
            text += " parallelize_module takes one mesh axis per module; the other plans are for reference.";
        text += "\"\"\"\n    model = parallelize_module(model, mesh[" + pythonString(applied.axisName) + "], " + variable + ")\n";
    }
    text += training.applyLines;
    return text + "    return model\n";
}

}  // namespace tapestry
