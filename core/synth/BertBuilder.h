#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// BERT as Hugging Face's BertModel exports: bert/embeddings/{word,position,
// token_type}_embeddings and LayerNorm, bert/encoder/layer.N/{attention/{self/{query,
// key,value}, output/{dense, LayerNorm}}, intermediate/dense, output/{dense,
// LayerNorm}} (post-LN, erf GELU), and bert/pooler/dense (a Gemm on the first token).
// Expects a valid spec.
[[nodiscard]] Graph buildBert(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
