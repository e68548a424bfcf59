#include "synth/GptBuilder.h"

#include "synth/TransformerParts.h"

namespace tapestry {

Graph buildGpt(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const Dimension batch = Dimension::symbolic("batch");
    const Dimension seq = Dimension::symbolic("sequence");
    const TensorShape ids({batch, seq});
    const TensorShape hidden = hiddenShape(batch, seq, spec.hidden);
    const TensorType f32{DataType::Float32, hidden};
    e.input("input_ids", DataType::Int64, ids);
    e.input("attention_mask", DataType::Int64, ids);
    e.input("position_ids", DataType::Int64, ids);

    const std::string tokenTable = e.weight("transformer.wte.weight", {spec.vocab, spec.hidden});
    const std::string tokens = e.op("transformer/wte", "Gather", {tokenTable, "input_ids"}, f32);
    const std::string positions = e.op(
        "transformer/wpe", "Gather",
        {e.weight("transformer.wpe.weight", {spec.maxPositions, spec.hidden}), "position_ids"}, f32);
    std::string x = e.op("transformer", "Add", {tokens, positions}, f32);
    // GPT is a left-to-right decoder: padding mask plus the causal mask, [batch, 1, seq, seq].
    const std::string mask =
        e.op("transformer", "Add",
             {additiveMask(e, "transformer", "attention_mask", batch, seq), causalMask(e, "transformer", "input_ids", seq)},
             {DataType::Float32, TensorShape({batch, Dimension::known(1), seq, seq})});

    const AttentionGeometry geometry{batch, seq, seq, spec.heads, spec.heads, spec.hidden / spec.heads};
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "transformer/h." + std::to_string(layer);
        const std::string attn = block + "/attn";
        const std::string normed = layerNorm(e, block + "/ln_1", x, hidden);
        const std::string qkv = linear(e, attn + "/c_attn", normed, hidden, 3 * spec.hidden, true);
        const std::vector<std::string> parts =
            e.opWithOutputs(attn, "Split", {qkv, e.int64s(attn, {spec.hidden, spec.hidden, spec.hidden})},
                            {f32, f32, f32}, {{"axis", std::int64_t{2}}});
        const std::string context =
            attention(e, attn, geometry, parts[0], parts[1], parts[2], mask, true, nullptr, spec.dropout);
        std::string projected = linear(e, attn + "/c_proj", context, hidden, spec.hidden, true);
        if (spec.dropout)
            projected = dropout(e, block, projected, hidden);  // fused with the residual add, as Megatron does
        x = e.op(block, "Add", {projected, x}, f32);

        const std::string mlp = block + "/mlp";
        const std::string normed2 = layerNorm(e, block + "/ln_2", x, hidden);
        const TensorShape wide = hiddenShape(batch, seq, spec.ffn);
        const std::string up = linear(e, mlp + "/c_fc", normed2, hidden, spec.ffn, true);
        const std::string activated = geluTanh(e, mlp + "/act", up, wide);
        std::string down = linear(e, mlp + "/c_proj", activated, wide, spec.hidden, true);
        if (spec.dropout)
            down = dropout(e, block, down, hidden);
        x = e.op(block, "Add", {x, down}, f32);
    }
    x = layerNorm(e, "transformer/ln_f", x, hidden);
    const std::string headWeight =
        e.op("lm_head", "Transpose", {tokenTable}, {DataType::Float32, TensorShape::ofExtents({spec.hidden, spec.vocab})},
             {{"perm", std::vector<std::int64_t>{1, 0}}});
    e.op("lm_head", "MatMul", {x, headWeight}, {DataType::Float32, hiddenShape(batch, seq, spec.vocab)}, {}, "logits");
    e.markOutput("logits");
    return e.finish();
}

}  // namespace tapestry
