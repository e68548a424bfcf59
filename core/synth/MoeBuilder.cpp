#include "synth/MoeBuilder.h"

#include "synth/LlamaBuilder.h"

namespace tapestry {

namespace {

const Dimension kBatch = Dimension::symbolic("batch");
const Dimension kSeq = Dimension::symbolic("sequence");

TensorType f32(TensorShape shape)
{
    return {DataType::Float32, std::move(shape)};
}

// Router: [batch, seq, hidden] -> routing weight per expert [batch, seq, experts],
// zero for the experts a token is not sent to.
std::string emitRouter(TorchScriptEmitter& e, const ModelSpec& spec, const std::string& moe, const std::string& x)
{
    const TensorShape hidden = hiddenShape(kBatch, kSeq, spec.hidden);
    const TensorShape perExpert = hiddenShape(kBatch, kSeq, spec.experts);
    const TensorShape chosen = hiddenShape(kBatch, kSeq, spec.topK);
    const TensorShape chosenByExpert({kBatch, kSeq, Dimension::known(spec.topK), Dimension::known(spec.experts)});
    const std::string logits = linear(e, moe + "/gate", x, hidden, spec.experts, false);
    const std::string probabilities = e.op(moe, "Softmax", {logits}, f32(perExpert), {{"axis", std::int64_t{-1}}});
    const std::vector<std::string> top =
        e.opWithOutputs(moe, "TopK", {probabilities, e.int64s(moe, {spec.topK})},
                        {f32(chosen), {DataType::Int64, chosen}}, {{"axis", std::int64_t{-1}}});
    const std::string total = e.op(moe, "ReduceSum", {top[0], e.int64s(moe, {-1})},
                                   f32(hiddenShape(kBatch, kSeq, 1)), {{"keepdims", std::int64_t{1}}});
    const std::string weights = e.op(moe, "Div", {top[0], total}, f32(chosen));
    const std::string oneHot =
        e.op(moe, "OneHot", {top[1], e.int64Scalar(moe, spec.experts), e.int64s(moe, {0, 1})},
             {DataType::Int64, chosenByExpert}, {{"axis", std::int64_t{-1}}});
    const std::string selection =
        e.op(moe, "Cast", {oneHot}, f32(chosenByExpert), {{"to", static_cast<std::int64_t>(DataType::Float32)}});
    const std::string column = e.op(moe, "Unsqueeze", {weights, e.int64s(moe, {3})},
                                    f32(TensorShape({kBatch, kSeq, Dimension::known(spec.topK), Dimension::known(1)})));
    const std::string weighted = e.op(moe, "Mul", {selection, column}, f32(chosenByExpert));
    return e.op(moe, "ReduceSum", {weighted, e.int64s(moe, {2})}, f32(perExpert), {{"keepdims", std::int64_t{0}}});
}

}  // namespace

Graph buildMoe(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const LlamaStem stem = emitLlamaStem(e, spec);
    const TensorShape hidden = hiddenShape(kBatch, kSeq, spec.hidden);
    const TensorShape wide = hiddenShape(kBatch, kSeq, spec.ffn);
    std::string x = stem.hidden;
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "model/layers." + std::to_string(layer);
        x = emitLlamaAttentionHalf(e, spec, block, x, stem);
        const std::string moe = block + "/block_sparse_moe";
        const std::string normed = rmsNorm(e, block + "/post_attention_layernorm", x, hidden);
        const std::string routing = emitRouter(e, spec, moe, normed);
        // Each expert weights its own output by its routing column, so only the copies
        // routed to it are weighted (Megatron-LM applies the probabilities to the routed
        // copies, HF Mixtral to the rows it gathered), and the combine sums those copies.
        const std::vector<std::string> columns = e.opWithOutputs(
            moe, "Split", {routing}, std::vector<TensorType>(static_cast<std::size_t>(spec.experts),
                                                             f32(hiddenShape(kBatch, kSeq, 1))),
            {{"axis", std::int64_t{-1}}});
        std::vector<std::string> expertOutputs;
        for (std::int64_t expert = 0; expert < spec.experts; ++expert) {
            const std::string scope = moe + "/experts." + std::to_string(expert);
            const std::string gate = linear(e, scope + "/w1", normed, hidden, spec.ffn, false);
            const std::string activated = silu(e, scope + "/act_fn", gate, wide);
            const std::string up = linear(e, scope + "/w3", normed, hidden, spec.ffn, false);
            const std::string product = e.op(scope, "Mul", {activated, up}, f32(wide));
            const std::string down = linear(e, scope + "/w2", product, wide, spec.hidden, false);
            expertOutputs.push_back(
                e.op(scope, "Mul", {down, columns[static_cast<std::size_t>(expert)]}, f32(hidden)));
        }
        const std::string mixed = e.op(moe, "Sum", expertOutputs, f32(hidden));
        x = e.op(block, "Add", {x, mixed}, f32(hidden));
    }
    emitLlamaHead(e, spec, x);
    return e.finish();
}

}  // namespace tapestry
