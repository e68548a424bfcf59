#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

enum class ModelFamily : std::uint8_t {
    Gpt,     // GPT-2/GPT-3: learned positions, LayerNorm, GELU, tied LM head
    Llama,   // RMSNorm, rotary positions, GQA, SwiGLU, untied lm_head
    Bert,    // encoder: post-LN, GELU, pooler
    Vit,     // encoder over image patches: pre-LN, class token, classifier
    T5,      // encoder-decoder: RMSNorm, relative position bias, cross-attention
    Moe,     // Llama-style attention with a top-k routed mixture of SwiGLU experts
    ResNet,  // bottleneck CNN (torchvision v1.5: stride on the 3x3 conv)
};

[[nodiscard]] std::string_view modelFamilyName(ModelFamily family);

// The size of a reference model. Presets fill it; command-line flags override single
// fields. Fields a family does not use are ignored by its builder.
struct ModelSpec {
    ModelFamily family = ModelFamily::Gpt;
    std::int64_t layers = 0;         // blocks (T5: encoder blocks)
    std::int64_t decoderLayers = 0;  // T5 decoder blocks
    std::int64_t hidden = 0;         // model width (ResNet: width of the stem)
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;  // key/value heads (GQA); equal to heads for plain MHA
    std::int64_t ffn = 0;      // feed-forward width (per expert for MoE)
    std::int64_t vocab = 0;
    std::int64_t maxPositions = 0;  // learned position table rows (GPT, BERT)
    std::int64_t experts = 0;       // MoE experts per layer
    std::int64_t topK = 0;          // MoE experts each token is routed to
    std::vector<std::int64_t> stageBlocks;  // ResNet bottlenecks per stage
    std::int64_t imageSize = 0;     // ResNet, ViT: square input side
    std::int64_t patchSize = 0;     // ViT
    std::int64_t classes = 0;       // ResNet, ViT: classifier outputs
    bool dropout = false;           // GPT: dropout on attention probabilities and both residual branches
};

// Throws tapestry::Error (InvalidArgument) naming the first field that cannot build a
// model of the spec's family: non-positive sizes, hidden not divisible by heads, heads
// not divisible by kvHeads, odd head size with rotary positions, topK above experts,
// image size not divisible by the patch size or by ResNet's total stride.
void validateModelSpec(const ModelSpec& spec);

}  // namespace tapestry
