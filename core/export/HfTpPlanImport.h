#pragma once

#include "plan/Plan.h"

#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

class Graph;

// One line of a Hugging Face tp_plan: a module pattern and its style name.
struct HfTpPlanEntry {
    std::string pattern;  // "model.layers.*.self_attn.q_proj"
    std::string style;    // "colwise"
    bool operator==(const HfTpPlanEntry&) const = default;
};

// Whether `text` is a tp_plan rather than a Tapestry plan: a JSON object whose values
// are all strings, or a Python dict literal (what follows the first '{' outside comments)
// that is not a broken Tapestry plan (one naming "schema_version").
[[nodiscard]] bool isHfTpPlan(std::string_view text);

// Reads a tp_plan in file order: a JSON object of strings, or a Python dict literal
// of string keys and values (single or double quotes, comments, a trailing comma, and
// anything before the '{' such as `tp_plan = ` are accepted). Throws
// Error(InvalidPlan, fileName, "line L, column C: ...") otherwise.
[[nodiscard]] std::vector<HfTpPlanEntry> parseHfTpPlan(std::string_view text, const std::string& fileName);

struct ImportedPlan {
    Plan plan;
    std::vector<std::string> warnings;  // patterns matching nothing, Linear modules left out, styles ignored
};

// The tp_plan as expert annotations: each pattern is matched against the module paths
// of Linear and Embedding anchors and Normalization nodes, component by component
// ("*" matches one component: a layer index or a name), either as a path of the whole
// model or relative to its base model (the path without its first component, as in
// base_model_tp_plan). The first matching pattern decides. colwise* styles make a
// linear column parallel, rowwise* row parallel; embedding_rowwise (or rowwise on an
// embedding) splits the vocabulary, embedding_colwise the embedding dim; any matched
// sequence_parallel turns on sequence parallelism for the followers. The plan puts
// these splits on the mesh's last axis, data parallelism on the others, and lays the
// followers out as makeTensorParallelPlan does.
[[nodiscard]] ImportedPlan planFromHfTpPlan(const std::vector<HfTpPlanEntry>& entries, const Graph& graph,
                                            const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh);

}  // namespace tapestry
