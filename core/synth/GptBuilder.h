#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// GPT-2/GPT-3 as Hugging Face's GPT2LMHeadModel exports: transformer/wte, wpe,
// h.N/{ln_1, attn/{c_attn, c_proj}, ln_2, mlp/{c_fc, act, c_proj}}, ln_f, and an
// lm_head that reads the transposed token embedding (tied, counted once).
// Conv1D weights are [in, out], as the exporter writes them. Expects a valid spec.
[[nodiscard]] Graph buildGpt(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
