#include "export/PyTorchPlanExport.h"

#include "base/Error.h"

#include "export/ModuleStyleTable.h"
#include "graph/Graph.h"

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

}  // namespace

std::string exportPyTorchPlan(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                              const Plan& plan)
{
    // Plan files are checked when read; a plan built in memory is checked here, so the
    // script never names a mesh of size <= 0 or a device count beyond int.
    std::int64_t devices = 1;
    for (const MeshAxis& axis : plan.mesh) {
        if (axis.size < 1 || devices * axis.size > std::numeric_limits<std::int32_t>::max())
            throw Error(ErrorCode::InvalidMesh, {},
                        "mesh axis '" + axis.name + "' of size " + std::to_string(axis.size) +
                            " gives no device count a script can use");
        devices *= axis.size;
    }
    validatePlan(plan, coarse);
    const std::vector<ModuleStyleTable> tables = moduleStyleTables(graph, coarse, families, plan);
    std::string shape;
    std::string names;
    std::string meshText;
    for (const MeshAxis& axis : plan.mesh) {
        shape += std::to_string(axis.size) + ", ";
        names += pythonString(axis.name) + ", ";
        meshText += std::string(meshText.empty() ? "" : " x ") + axis.name + "=" + std::to_string(axis.size);
    }
    if (plan.mesh.size() > 1) {  // a one-element tuple keeps its trailing comma
        shape.resize(shape.size() - 2);
        names.resize(names.size() - 2);
    } else if (!plan.mesh.empty()) {
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
            others += "#   " + coarse.node(id).name + " (" + axisSplitName(split) + ")\n";
        }
        if (dataParallel > 0)
            body += "# " + std::to_string(dataParallel) + " other coarse nodes split their batch on \"" + table.axisName +
                    "\": data parallelism, wrap the model with FSDP or DDP over mesh[\"" + table.axisName + "\"].\n";
        if (!others.empty())
            body += "# Not expressible as a module style, so replicated here although the plan splits them on \"" +
                    table.axisName + "\":\n" + others;
    }

    std::string text;
    text += "# Tensor-parallel plan \"" + plan.name + "\" exported by Tapestry";
    if (!graph.info().sourcePath.empty())
        text += " for " + std::filesystem::path(graph.info().sourcePath).filename().string();
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
    for (const MeshAxis& axis : plan.mesh) {
        const bool tensorParallel = std::any_of(tables.begin(), tables.end(), [&](const ModuleStyleTable& t) {
            return t.axisName == axis.name;
        });
        if (!tensorParallel && axis.size > 1)
            text += "# Mesh axis \"" + axis.name + "\" is data parallel: wrap the result of apply() with FSDP or DDP over mesh[" +
                    pythonString(axis.name) + "].\n";
    }
    if (tables.empty())
        text += "# The plan is pure data parallel: no module is sharded, so the plan below is empty.\n";
    text += "\nfrom torch.distributed.device_mesh import init_device_mesh\n";
    if (!tensorNames.empty())
        text += "from torch.distributed.tensor import " + joined(tensorNames) + "\n";
    parallelNames.insert("parallelize_module");
    if (!tables.empty())
        text += "from torch.distributed.tensor.parallel import " + joined(parallelNames) + "\n";
    text += "\nmesh = init_device_mesh(\"cuda\", (" + shape + "), mesh_dim_names=(" + names + "))\n";
    if (tables.empty()) {
        text += "\nplan = {}\n\n\ndef apply(model):\n"
                "    \"\"\"Nothing to shard in a data-parallel plan: returns `model` unchanged.\"\"\"\n"
                "    return model\n";
        return text;
    }
    text += body;
    const ModuleStyleTable& applied = tables.back();
    const std::string variable = tables.size() == 1 ? "plan" : "plan_" + applied.axisName;
    text += "\n\ndef apply(model):\n";
    text += "    \"\"\"Shards `model` in place over mesh[" + pythonString(applied.axisName) + "] and returns it.";
    if (tables.size() > 1)
        text += " parallelize_module takes one mesh axis per module; the other plans are for reference.";
    text += "\"\"\"\n    return parallelize_module(model, mesh[" + pythonString(applied.axisName) + "], " + variable + ")\n";
    return text;
}

}  // namespace tapestry
