#include "export/HfTpPlanExport.h"

#include "base/JsonWriter.h"
#include "export/ModuleStyleTable.h"

#include <map>

namespace tapestry {

namespace {

const char* hfStyleName(const ModuleStyleEntry& entry)
{
    switch (entry.style) {
    case ModuleStyle::Colwise: return entry.output == BoundaryLayout::Replicated ? "colwise_gather_output" : "colwise";
    case ModuleStyle::Rowwise: return entry.input == BoundaryLayout::Replicated ? "rowwise_split_input" : "rowwise";
    case ModuleStyle::EmbeddingRowwise: return "embedding_rowwise";
    case ModuleStyle::EmbeddingColwise: return "embedding_colwise";
    case ModuleStyle::SequenceParallel: return "sequence_parallel";
    }
    return "colwise";
}

struct HfPlan {
    std::vector<std::pair<std::string, std::string>> entries;
    std::string axisName;
    int size = 1;
    std::string basePrefix;  // "model", for BaseModel keys
};

std::string firstComponent(const std::string& path)
{
    const std::size_t dot = path.find('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

HfPlan hfPlan(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families, const Plan& plan,
              HfPlanKeys keys)
{
    HfPlan result;
    std::vector<ModuleStyleTable> tables = moduleStyleTables(graph, coarse, families, plan);
    // A weight split over one GPU shards nothing: a stack search lays a data-parallel plan
    // out as [dp, 1] and tp_size=1 would only confuse.
    std::erase_if(tables, [&](const ModuleStyleTable& t) { return plan.mesh.at(t.axis).size <= 1; });
    if (tables.empty())
        return result;
    const ModuleStyleTable& table = tables.back();
    result.axisName = table.axisName;
    result.size = plan.mesh.at(table.axis).size;
    std::map<std::string, std::size_t> prefixCounts;
    for (const ModuleStyleEntry& entry : table.entries)
        if (const std::string first = firstComponent(entry.modulePath); !first.empty())
            ++prefixCounts[first];
    for (const auto& [prefix, count] : prefixCounts)
        if (result.basePrefix.empty() || count > prefixCounts[result.basePrefix])
            result.basePrefix = prefix;
    for (const ModuleStyleEntry& entry : table.entries) {
        std::string key = entry.modulePath;
        if (keys == HfPlanKeys::BaseModel) {
            if (result.basePrefix.empty() || firstComponent(key) != result.basePrefix)
                continue;
            key.erase(0, result.basePrefix.size() + 1);
        }
        result.entries.emplace_back(std::move(key), hfStyleName(entry));
    }
    return result;
}

// The mesh axes besides the tensor-parallel one and the pipeline: what a tp_plan does not
// carry and the trainer has to be told separately.
std::string leftOutComment(const Plan& plan, const HfPlan& hf)
{
    std::vector<std::string> parts;
    if (plan.pipeline.active())
        parts.push_back("a pipeline of " + std::to_string(plan.pipeline.stages) + " stages");
    for (const MeshAxis& axis : plan.mesh)
        if (axis.size > 1 && axis.name != hf.axisName)
            parts.push_back("mesh axis \"" + axis.name + "\" (" + std::to_string(axis.size) + " GPUs)");
    if (parts.empty())
        return {};
    std::string text = "# A tp_plan holds tensor parallelism only; the plan also runs ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return text + ",\n# which the trainer (data parallelism, ZeRO/FSDP, pipeline) has to be set up to run.\n";
}

}  // namespace

std::string exportHfTpPlanJson(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                               const Plan& plan, HfPlanKeys keys)
{
    JsonWriter json;
    json.beginObject();
    for (const auto& [key, style] : hfPlan(graph, coarse, families, plan, keys).entries)
        json.key(key).value(style);
    json.endObject();
    return json.text();  // ends with its newline
}

std::string exportHfTpPlanPython(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                 const Plan& plan, HfPlanKeys keys)
{
    const HfPlan hf = hfPlan(graph, coarse, families, plan, keys);
    const std::string variable = keys == HfPlanKeys::Model ? "tp_plan" : "base_model_tp_plan";
    std::string text = "# Hugging Face tensor-parallel plan from Tapestry plan \"" + plan.name + "\"";
    if (hf.entries.empty() && hf.axisName.empty()) {
        text += ".\n# The plan is pure data parallel: no module is sharded.\n";
    } else {
        text += " (tp = " + std::to_string(hf.size) + " on mesh axis \"" + hf.axisName + "\").\n";
        if (keys == HfPlanKeys::Model)
            text += "# Keys are module paths of the whole model (\"*\": every layer); pass it as\n"
                    "#   AutoModelForCausalLM.from_pretrained(..., tp_plan=tp_plan, tp_size=" +
                    std::to_string(hf.size) + ")\n";
        else
            text += "# Keys are relative to the base model (the model's \"" + hf.basePrefix +
                    "\" attribute), as in config.base_model_tp_plan;\n"
                    "# modules outside it (such as lm_head) belong in the top model's tp_plan.\n";
        text += "# transformers 4.x names \"colwise_gather_output\" \"colwise_rep\" and \"rowwise_split_input\" "
                "\"rowwise_rep\".\n";
    }
    text += leftOutComment(plan, hf);
    text += variable + " = {\n";
    for (const auto& [key, style] : hf.entries)
        text += "    " + jsonEscaped(key) + ": " + jsonEscaped(style) + ",\n";
    return text + "}\n";
}

}  // namespace tapestry
