#include "synth/LlamaBuilder.h"

namespace tapestry {

namespace {

const Dimension kBatch = Dimension::symbolic("batch");
const Dimension kSeq = Dimension::symbolic("sequence");

}  // namespace

LlamaStem emitLlamaStem(TorchScriptEmitter& e, const ModelSpec& spec)
{
    const TensorShape ids({kBatch, kSeq});
    e.input("input_ids", DataType::Int64, ids);
    e.input("attention_mask", DataType::Int64, ids);
    e.input("position_ids", DataType::Int64, ids);
    LlamaStem stem;
    stem.hidden = e.op("model/embed_tokens", "Gather",
                       {e.weight("model.embed_tokens.weight", {spec.vocab, spec.hidden}), "input_ids"},
                       {DataType::Float32, hiddenShape(kBatch, kSeq, spec.hidden)});
    // A left-to-right decoder: the padding mask plus the causal mask, as Hugging Face's
    // LlamaModel builds them (its causal mask is what tells the cost model that fused
    // attention computes half of the scores).
    stem.mask = e.op("model", "Add",
                     {additiveMask(e, "model", "attention_mask", kBatch, kSeq), causalMask(e, "model", "input_ids", kSeq)},
                     {DataType::Float32, TensorShape({kBatch, Dimension::known(1), kSeq, kSeq})});
    stem.rotary = rotaryTables(e, "model/rotary_emb", "position_ids", kBatch, kSeq, spec.hidden / spec.heads);
    return stem;
}

std::string emitLlamaAttentionHalf(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& layerScope,
                                   const std::string& x, const LlamaStem& stem)
{
    const TensorShape hidden = hiddenShape(kBatch, kSeq, spec.hidden);
    const std::int64_t headDim = spec.hidden / spec.heads;
    const std::string attn = layerScope + "/self_attn";
    const std::string normed = rmsNorm(e, layerScope + "/input_layernorm", x, hidden);
    const std::string q = linear(e, attn + "/q_proj", normed, hidden, spec.heads * headDim, false);
    const std::string k = linear(e, attn + "/k_proj", normed, hidden, spec.kvHeads * headDim, false);
    const std::string v = linear(e, attn + "/v_proj", normed, hidden, spec.kvHeads * headDim, false);
    const AttentionGeometry geometry{kBatch, kSeq, kSeq, spec.heads, spec.kvHeads, headDim};
    const std::string context = attention(e, attn, geometry, q, k, v, stem.mask, true, &stem.rotary);
    const std::string projected = linear(e, attn + "/o_proj", context, hidden, spec.hidden, false);
    return e.op(layerScope, "Add", {x, projected}, {DataType::Float32, hidden});
}

void emitLlamaHead(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& x)
{
    const std::string normed = rmsNorm(e, "model/norm", x, hiddenShape(kBatch, kSeq, spec.hidden));
    e.op("lm_head", "MatMul", {normed, e.weight("lm_head.weight", {spec.hidden, spec.vocab})},
         {DataType::Float32, hiddenShape(kBatch, kSeq, spec.vocab)}, {}, "logits");
    e.markOutput("logits");
}

Graph buildLlama(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const LlamaStem stem = emitLlamaStem(e, spec);
    const TensorShape hidden = hiddenShape(kBatch, kSeq, spec.hidden);
    const TensorShape wide = hiddenShape(kBatch, kSeq, spec.ffn);
    std::string x = stem.hidden;
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "model/layers." + std::to_string(layer);
        x = emitLlamaAttentionHalf(e, spec, block, x, stem);
        const std::string mlp = block + "/mlp";
        const std::string normed = rmsNorm(e, block + "/post_attention_layernorm", x, hidden);
        const std::string gate = linear(e, mlp + "/gate_proj", normed, hidden, spec.ffn, false);
        const std::string activated = silu(e, mlp + "/act_fn", gate, wide);
        const std::string up = linear(e, mlp + "/up_proj", normed, hidden, spec.ffn, false);
        const std::string product = e.op(mlp, "Mul", {activated, up}, {DataType::Float32, wide});
        const std::string down = linear(e, mlp + "/down_proj", product, wide, spec.hidden, false);
        x = e.op(block, "Add", {x, down}, {DataType::Float32, hidden});
    }
    emitLlamaHead(e, spec, x);
    return e.finish();
}

}  // namespace tapestry
