#pragma once

#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <string>

namespace tapestry {

class Graph;

// Which module the keys of a Hugging Face plan are relative to.
enum class HfPlanKeys : std::uint8_t {
    Model,      // the whole model: "model.layers.*.self_attn.q_proj", "lm_head" (from_pretrained's tp_plan)
    BaseModel,  // the base model: "layers.*.self_attn.q_proj" (config.base_model_tp_plan); modules outside it are left out
};

// The plan's last tensor-parallel axis as a Hugging Face tp_plan: module pattern to
// "colwise", "colwise_gather_output" (the output is needed whole), "rowwise",
// "rowwise_split_input" (the input arrives whole), "embedding_rowwise" (vocabulary
// parallel), "embedding_colwise", "sequence_parallel" (transformers 5 names; 4.x calls
// the gather/split variants "colwise_rep" and "rowwise_rep"). The base model's prefix
// is the first path component most entries share ("model"). Empty for a data-parallel plan.
[[nodiscard]] std::string exportHfTpPlanJson(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                             const Plan& plan, HfPlanKeys keys);
// The same as a Python dict literal (`tp_plan = {...}` or `base_model_tp_plan = {...}`)
// with comments saying how to pass it.
[[nodiscard]] std::string exportHfTpPlanPython(const Graph& graph, const CoarseGraph& coarse,
                                               const FamilyTable& families, const Plan& plan, HfPlanKeys keys);

}  // namespace tapestry
