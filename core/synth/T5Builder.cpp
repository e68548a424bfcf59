#include "synth/T5Builder.h"

#include "synth/TransformerParts.h"

namespace tapestry {

namespace {

constexpr std::int64_t kRelativeBuckets = 32;

const Dimension kBatch = Dimension::symbolic("batch");

TensorType f32(TensorShape shape)
{
    return {DataType::Float32, std::move(shape)};
}

// Position bias [1, heads, seq, seq] from the ids' sequence length, under
// ".../layer.0/SelfAttention" of block 0.
std::string relativePositionBias(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& scope,
                                 const std::string& ids, const Dimension& seq)
{
    const TensorType scalar{DataType::Int64, TensorShape::ofExtents({})};
    const std::string length = runtimeExtent(e, scope, ids, 2, 1);
    const std::string positions =
        e.op(scope, "Range", {e.int64Scalar(scope, 0), length, e.int64Scalar(scope, 1)}, {DataType::Int64, TensorShape({seq})});
    const std::string memory = e.op(scope, "Unsqueeze", {positions, e.int64s(scope, {0})},
                                    {DataType::Int64, TensorShape({Dimension::known(1), seq})});
    const std::string context = e.op(scope, "Unsqueeze", {positions, e.int64s(scope, {1})},
                                     {DataType::Int64, TensorShape({seq, Dimension::known(1)})});
    const TensorType square{DataType::Int64, TensorShape({seq, seq})};
    const std::string relative = e.op(scope, "Sub", {memory, context}, square);
    const std::string distance = e.op(scope, "Abs", {relative}, square);
    const std::string bucket = e.op(scope, "Min", {distance, e.int64Scalar(scope, kRelativeBuckets - 1)}, square);
    const std::string table = e.weight(modulePath(scope) + ".relative_attention_bias.weight", {kRelativeBuckets, spec.heads});
    const std::string values = e.op(scope + "/relative_attention_bias", "Gather", {table, bucket},
                                    f32(TensorShape({seq, seq, Dimension::known(spec.heads)})));
    const std::string headsFirst = e.op(scope, "Transpose", {values}, f32(TensorShape({Dimension::known(spec.heads), seq, seq})),
                                        {{"perm", std::vector<std::int64_t>{2, 0, 1}}});
    return e.op(scope, "Unsqueeze", {headsFirst, e.int64s(scope, {0})},
                f32(TensorShape({Dimension::known(1), Dimension::known(spec.heads), seq, seq})));
}

// q from `x`, k and v from `memory`; no bias on any projection.
std::string t5Attention(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& scope, const std::string& x,
                        const Dimension& seq, const std::string& memory, const Dimension& memorySeq,
                        const std::string& bias)
{
    const TensorShape hidden = hiddenShape(kBatch, seq, spec.hidden);
    const TensorShape memoryShape = hiddenShape(kBatch, memorySeq, spec.hidden);
    const std::string q = linear(e, scope + "/q", x, hidden, spec.hidden, false);
    const std::string k = linear(e, scope + "/k", memory, memoryShape, spec.hidden, false);
    const std::string v = linear(e, scope + "/v", memory, memoryShape, spec.hidden, false);
    const AttentionGeometry geometry{kBatch, seq, memorySeq, spec.heads, spec.heads, spec.hidden / spec.heads};
    // T5 folds the 1/sqrt(d) scaling into its initialisation: scores are not scaled.
    const std::string context = attention(e, scope, geometry, q, k, v, bias, false);
    return linear(e, scope + "/o", context, hidden, spec.hidden, false);
}

std::string denseReluDense(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& layerScope,
                           const std::string& x, const Dimension& seq)
{
    const TensorShape hidden = hiddenShape(kBatch, seq, spec.hidden);
    const TensorShape wide = hiddenShape(kBatch, seq, spec.ffn);
    const std::string scope = layerScope + "/DenseReluDense";
    const std::string normed = rmsNorm(e, layerScope + "/layer_norm", x, hidden);
    const std::string up = linear(e, scope + "/wi", normed, hidden, spec.ffn, false);
    const std::string activated = e.op(scope + "/act", "Relu", {up}, f32(wide));
    const std::string down = linear(e, scope + "/wo", activated, wide, spec.hidden, false);
    return e.op(layerScope, "Add", {x, down}, f32(hidden));
}

}  // namespace

Graph buildT5(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const Dimension seq = Dimension::symbolic("sequence");
    const Dimension decoderSeq = Dimension::symbolic("decoder_sequence");
    e.input("input_ids", DataType::Int64, TensorShape({kBatch, seq}));
    e.input("attention_mask", DataType::Int64, TensorShape({kBatch, seq}));
    e.input("decoder_input_ids", DataType::Int64, TensorShape({kBatch, decoderSeq}));
    const std::string shared = e.weight("shared.weight", {spec.vocab, spec.hidden});

    const TensorShape hidden = hiddenShape(kBatch, seq, spec.hidden);
    std::string x = e.op("encoder/embed_tokens", "Gather", {shared, "input_ids"}, f32(hidden));
    const std::string mask = additiveMask(e, "encoder", "attention_mask", kBatch, seq);
    std::string encoderBias;
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "encoder/block." + std::to_string(layer);
        const std::string self = block + "/layer.0/SelfAttention";
        if (layer == 0) {
            const std::string position = relativePositionBias(e, spec, self, "input_ids", seq);
            encoderBias = e.op(self, "Add", {position, mask},
                               f32(TensorShape({kBatch, Dimension::known(spec.heads), seq, seq})));
        }
        const std::string normed = rmsNorm(e, block + "/layer.0/layer_norm", x, hidden);
        const std::string attended = t5Attention(e, spec, self, normed, seq, normed, seq, encoderBias);
        x = e.op(block + "/layer.0", "Add", {x, attended}, f32(hidden));
        x = denseReluDense(e, spec, block + "/layer.1", x, seq);
    }
    const std::string encoded = rmsNorm(e, "encoder/final_layer_norm", x, hidden);

    const TensorShape decoderHidden = hiddenShape(kBatch, decoderSeq, spec.hidden);
    std::string y = e.op("decoder/embed_tokens", "Gather", {shared, "decoder_input_ids"}, f32(decoderHidden));
    std::string decoderBias;
    for (std::int64_t layer = 0; layer < spec.decoderLayers; ++layer) {
        const std::string block = "decoder/block." + std::to_string(layer);
        const std::string self = block + "/layer.0/SelfAttention";
        if (layer == 0)
            decoderBias = relativePositionBias(e, spec, self, "decoder_input_ids", decoderSeq);
        const std::string normed = rmsNorm(e, block + "/layer.0/layer_norm", y, decoderHidden);
        const std::string attended = t5Attention(e, spec, self, normed, decoderSeq, normed, decoderSeq, decoderBias);
        y = e.op(block + "/layer.0", "Add", {y, attended}, f32(decoderHidden));

        const std::string normedCross = rmsNorm(e, block + "/layer.1/layer_norm", y, decoderHidden);
        const std::string crossed =
            t5Attention(e, spec, block + "/layer.1/EncDecAttention", normedCross, decoderSeq, encoded, seq, mask);
        y = e.op(block + "/layer.1", "Add", {y, crossed}, f32(decoderHidden));
        y = denseReluDense(e, spec, block + "/layer.2", y, decoderSeq);
    }
    y = rmsNorm(e, "decoder/final_layer_norm", y, decoderHidden);
    // Tied head: hidden states are scaled by d_model^-0.5 before the shared embedding.
    const std::string scaled = e.op("", "Mul", {y, e.floatScalar("")}, f32(decoderHidden));
    const std::string headWeight =
        e.op("lm_head", "Transpose", {shared}, f32(TensorShape::ofExtents({spec.hidden, spec.vocab})),
             {{"perm", std::vector<std::int64_t>{1, 0}}});
    e.op("lm_head", "MatMul", {scaled, headWeight}, f32(hiddenShape(kBatch, decoderSeq, spec.vocab)), {}, "logits");
    e.markOutput("logits");
    return e.finish();
}

}  // namespace tapestry
