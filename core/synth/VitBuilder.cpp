#include "synth/VitBuilder.h"

#include "synth/TransformerParts.h"

namespace tapestry {

namespace {

constexpr std::int64_t kChannels = 3;

}  // namespace

Graph buildVit(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    const Dimension batch = Dimension::symbolic("batch");
    const Dimension h = Dimension::known(spec.hidden);
    const std::int64_t side = spec.imageSize / spec.patchSize;
    const std::int64_t patches = side * side;
    const Dimension seq = Dimension::known(patches + 1);
    const TensorShape hidden = hiddenShape(batch, seq, spec.hidden);
    const TensorType f32{DataType::Float32, hidden};
    e.input("pixel_values", DataType::Float32,
            TensorShape({batch, Dimension::known(kChannels), Dimension::known(spec.imageSize),
                         Dimension::known(spec.imageSize)}));

    const std::string embeddings = "vit/embeddings";
    const std::string patchScope = embeddings + "/patch_embeddings";
    const std::string projection = patchScope + "/projection";
    const std::string grid = e.op(
        projection, "Conv",
        {"pixel_values",
         e.weight("vit.embeddings.patch_embeddings.projection.weight",
                  {spec.hidden, kChannels, spec.patchSize, spec.patchSize}),
         e.weight("vit.embeddings.patch_embeddings.projection.bias", {spec.hidden})},
        {DataType::Float32, TensorShape({batch, h, Dimension::known(side), Dimension::known(side)})},
        {{"dilations", std::vector<std::int64_t>{1, 1}},
         {"group", std::int64_t{1}},
         {"kernel_shape", std::vector<std::int64_t>{spec.patchSize, spec.patchSize}},
         {"pads", std::vector<std::int64_t>{0, 0, 0, 0}},
         {"strides", std::vector<std::int64_t>{spec.patchSize, spec.patchSize}}});
    const std::string flat =
        e.op(patchScope, "Reshape", {grid, e.int64s(patchScope, {0, spec.hidden, -1})},
             {DataType::Float32, TensorShape({batch, h, Dimension::known(patches)})});
    const std::string tokens = e.op(patchScope, "Transpose", {flat},
                                    {DataType::Float32, hiddenShape(batch, Dimension::known(patches), spec.hidden)},
                                    {{"perm", std::vector<std::int64_t>{0, 2, 1}}});

    const std::string batchSize = runtimeExtent(e, embeddings, "pixel_values", 4, 0);
    const std::string batchVector =
        e.op(embeddings, "Unsqueeze", {batchSize, e.int64s(embeddings, {0})}, {DataType::Int64, TensorShape::ofExtents({1})});
    const std::string expandShape =
        e.op(embeddings, "Concat", {batchVector, e.int64s(embeddings, {1, spec.hidden})},
             {DataType::Int64, TensorShape::ofExtents({3})}, {{"axis", std::int64_t{0}}});
    const std::string cls = e.op(embeddings, "Expand",
                                 {e.weight("vit.embeddings.cls_token", {1, 1, spec.hidden}), expandShape},
                                 {DataType::Float32, hiddenShape(batch, Dimension::known(1), spec.hidden)});
    std::string x = e.op(embeddings, "Concat", {cls, tokens}, f32, {{"axis", std::int64_t{1}}});
    x = e.op(embeddings, "Add", {x, e.weight("vit.embeddings.position_embeddings", {1, patches + 1, spec.hidden})}, f32);

    const TensorShape wide = hiddenShape(batch, seq, spec.ffn);
    const AttentionGeometry geometry{batch, seq, seq, spec.heads, spec.heads, spec.hidden / spec.heads};
    for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
        const std::string block = "vit/encoder/layer." + std::to_string(layer);
        const std::string self = block + "/attention/attention";
        const std::string normed = layerNorm(e, block + "/layernorm_before", x, hidden);
        const std::string q = linear(e, self + "/query", normed, hidden, spec.hidden, true);
        const std::string k = linear(e, self + "/key", normed, hidden, spec.hidden, true);
        const std::string v = linear(e, self + "/value", normed, hidden, spec.hidden, true);
        const std::string context = attention(e, self, geometry, q, k, v, {}, true);
        const std::string projected = linear(e, block + "/attention/output/dense", context, hidden, spec.hidden, true);
        x = e.op(block, "Add", {projected, x}, f32);

        const std::string normed2 = layerNorm(e, block + "/layernorm_after", x, hidden);
        const std::string up = linear(e, block + "/intermediate/dense", normed2, hidden, spec.ffn, true);
        const std::string activated = geluErf(e, block + "/intermediate/intermediate_act_fn", up, wide);
        const std::string down = linear(e, block + "/output/dense", activated, wide, spec.hidden, true);
        x = e.op(block + "/output", "Add", {down, x}, f32);
    }
    x = layerNorm(e, "vit/layernorm", x, hidden);

    const TensorType pooled{DataType::Float32, TensorShape({batch, h})};
    const std::string first = e.op("", "Gather", {x, e.int64Scalar("", 0)}, pooled, {{"axis", std::int64_t{1}}});
    e.op("classifier", "Gemm",
         {first, e.weight("classifier.weight", {spec.classes, spec.hidden}), e.weight("classifier.bias", {spec.classes})},
         {DataType::Float32, TensorShape({batch, Dimension::known(spec.classes)})},
         {{"alpha", 1.0}, {"beta", 1.0}, {"transB", std::int64_t{1}}}, "logits");
    e.markOutput("logits");
    return e.finish();
}

}  // namespace tapestry
