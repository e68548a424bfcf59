#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"
#include "synth/TransformerParts.h"

#include <string>

namespace tapestry {

// Llama/Llama-2 as Hugging Face's LlamaForCausalLM exports: model/embed_tokens,
// model/rotary_emb, layers.N/{input_layernorm, self_attn/{q,k,v,o}_proj,
// post_attention_layernorm, mlp/{gate,up,down}_proj}, model/norm, and an untied
// lm_head. RMSNorm as its op sequence, SiLU-gated MLP, GQA when kvHeads < heads.
// Expects a valid spec.
[[nodiscard]] Graph buildLlama(const ModelSpec& spec, const std::string& graphName);

// What the Llama and MoE families share: the graph inputs, embedding, mask and rotary
// tables ahead of the layers, the attention half of a decoder layer, and the final
// norm and lm_head after them.
struct LlamaStem {
    std::string hidden;  // [batch, sequence, hidden]
    std::string mask;
    RotaryTables rotary;
};
[[nodiscard]] LlamaStem emitLlamaStem(TorchScriptEmitter& e, const ModelSpec& spec);
// input_layernorm, self-attention, residual Add; returns the layer's hidden state.
std::string emitLlamaAttentionHalf(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& layerScope,
                                   const std::string& x, const LlamaStem& stem);
void emitLlamaHead(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& x);

}  // namespace tapestry
