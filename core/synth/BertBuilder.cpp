#include "synth/BertBuilder.h"

#include "synth/TransformerParts.h"

#include <numeric>

namespace tapestry {

namespace {

// BERT's token_type_embeddings has two rows (sentence A and B) in every released size.
constexpr std::int64_t kTokenTypes = 2;

}  // namespace

Graph buildBert(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const Dimension batch = Dimension::symbolic("batch");
    const Dimension seq = Dimension::symbolic("sequence");
    const TensorShape ids({batch, seq});
    const TensorShape hidden = hiddenShape(batch, seq, spec.hidden);
    const TensorType f32{DataType::Float32, hidden};
    e.input("input_ids", DataType::Int64, ids);
    e.input("attention_mask", DataType::Int64, ids);
    e.input("token_type_ids", DataType::Int64, ids);

    const std::string embeddings = "bert/embeddings";
    const std::string words = e.op(embeddings + "/word_embeddings", "Gather",
                                   {e.weight("bert.embeddings.word_embeddings.weight", {spec.vocab, spec.hidden}),
                                    "input_ids"},
                                   f32);
    const std::string types =
        e.op(embeddings + "/token_type_embeddings", "Gather",
             {e.weight("bert.embeddings.token_type_embeddings.weight", {kTokenTypes, spec.hidden}), "token_type_ids"},
             f32);
    std::string x = e.op(embeddings, "Add", {words, types}, f32);
    // position_ids is a registered buffer [1, maxPositions] sliced to the sequence.
    std::vector<std::int64_t> positionValues(static_cast<std::size_t>(spec.maxPositions));
    std::iota(positionValues.begin(), positionValues.end(), 0);
    const std::string positionTable =
        e.op(embeddings, "Constant", {}, {DataType::Int64, TensorShape::ofExtents({1, spec.maxPositions})},
             {{"value", AttributeTensor{DataType::Int64, {1, spec.maxPositions}, std::move(positionValues)}}});
    const std::string length = runtimeExtent(e, embeddings, "input_ids", 2, 1);
    const std::string end = e.op(embeddings, "Unsqueeze", {length, e.int64s(embeddings, {0})},
                                 {DataType::Int64, TensorShape::ofExtents({1})});
    const std::string positionIds =
        e.op(embeddings, "Slice", {positionTable, e.int64s(embeddings, {0}), end, e.int64s(embeddings, {1})},
             {DataType::Int64, TensorShape({Dimension::known(1), seq})});
    const std::string positions = e.op(
        embeddings + "/position_embeddings", "Gather",
        {e.weight("bert.embeddings.position_embeddings.weight", {spec.maxPositions, spec.hidden}), positionIds},
        {DataType::Float32, hiddenShape(Dimension::known(1), seq, spec.hidden)});
    x = e.op(embeddings, "Add", {x, positions}, f32);
    x = layerNorm(e, embeddings + "/LayerNorm", x, hidden);
    const std::string mask = additiveMask(e, "bert", "attention_mask", batch, seq);

    const TensorShape wide = hiddenShape(batch, seq, spec.ffn);
    const AttentionGeometry geometry{batch, seq, seq, spec.heads, spec.heads, spec.hidden / spec.heads};
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "bert/encoder/layer." + std::to_string(layer);
        const std::string self = block + "/attention/self";
        const std::string q = linear(e, self + "/query", x, hidden, spec.hidden, true);
        const std::string k = linear(e, self + "/key", x, hidden, spec.hidden, true);
        const std::string v = linear(e, self + "/value", x, hidden, spec.hidden, true);
        const std::string context = attention(e, self, geometry, q, k, v, mask, true);
        const std::string attnOut = block + "/attention/output";
        const std::string projected = linear(e, attnOut + "/dense", context, hidden, spec.hidden, true);
        x = layerNorm(e, attnOut + "/LayerNorm", e.op(attnOut, "Add", {projected, x}, f32), hidden);

        const std::string up = linear(e, block + "/intermediate/dense", x, hidden, spec.ffn, true);
        const std::string activated = geluErf(e, block + "/intermediate/intermediate_act_fn", up, wide);
        const std::string output = block + "/output";
        const std::string down = linear(e, output + "/dense", activated, wide, spec.hidden, true);
        const bool last = layer + 1 == spec.layers;
        x = layerNorm(e, output + "/LayerNorm", e.op(output, "Add", {down, x}, f32), hidden,
                      last ? "last_hidden_state" : "");
    }

    const TensorType pooled{DataType::Float32, TensorShape({batch, Dimension::known(spec.hidden)})};
    const std::string first =
        e.op("bert/pooler", "Gather", {x, e.int64Scalar("bert/pooler", 0)}, pooled, {{"axis", std::int64_t{1}}});
    // nn.Linear on 2-D input exports as Gemm with the torch [out, in] weight and transB.
    const std::string dense =
        e.op("bert/pooler/dense", "Gemm",
             {first, e.weight("bert.pooler.dense.weight", {spec.hidden, spec.hidden}),
              e.weight("bert.pooler.dense.bias", {spec.hidden})},
             pooled, {{"alpha", 1.0}, {"beta", 1.0}, {"transB", std::int64_t{1}}});
    e.op("bert/pooler/activation", "Tanh", {dense}, pooled, {}, "pooler_output");
    e.markOutput("last_hidden_state");
    e.markOutput("pooler_output");
    return e.finish();
}

}  // namespace tapestry
