#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// ViT as Hugging Face's ViTForImageClassification exports: vit/embeddings/
// {patch_embeddings/projection (Conv), cls_token, position_embeddings},
// vit/encoder/layer.N/{layernorm_before, attention/{attention/{query,key,value},
// output/dense}, layernorm_after, intermediate/dense, output/dense} (pre-LN, erf
// GELU), vit/layernorm and a Gemm classifier on the class token. The sequence is
// fixed by the image (patches + 1); only the batch is symbolic. Expects a valid spec.
[[nodiscard]] Graph buildVit(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
