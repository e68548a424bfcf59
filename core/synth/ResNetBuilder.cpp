#include "synth/ResNetBuilder.h"

#include "synth/TorchScriptEmitter.h"

namespace tapestry {

namespace {

constexpr std::int64_t kChannels = 3;
constexpr std::int64_t kExpansion = 4;

// Conv, BatchNormalization and Relu on square NCHW tensors [batch, channels, side, side].
class ResNetEmitter {
public:
    explicit ResNetEmitter(TorchScriptEmitter& e) : e_(e) {}

    std::string conv(const std::string& scope, const std::string& x, std::int64_t in, std::int64_t out,
                     std::int64_t kernel, std::int64_t stride, std::int64_t outSide)
    {
        const std::int64_t pad = kernel / 2;
        return e_.op(scope, "Conv", {x, e_.weight(modulePath(scope) + ".weight", {out, in, kernel, kernel})},
                     type(out, outSide),
                     {{"dilations", std::vector<std::int64_t>{1, 1}},
                      {"group", std::int64_t{1}},
                      {"kernel_shape", std::vector<std::int64_t>{kernel, kernel}},
                      {"pads", std::vector<std::int64_t>{pad, pad, pad, pad}},
                      {"strides", std::vector<std::int64_t>{stride, stride}}});
    }

    std::string batchNorm(const std::string& scope, const std::string& x, std::int64_t channels, std::int64_t side)
    {
        const std::string path = modulePath(scope);
        return e_.op(scope, "BatchNormalization",
                     {x, e_.weight(path + ".weight", {channels}), e_.weight(path + ".bias", {channels}),
                      e_.weight(path + ".running_mean", {channels}), e_.weight(path + ".running_var", {channels})},
                     type(channels, side), {{"epsilon", 1e-5}, {"momentum", 0.9}});
    }

    std::string relu(const std::string& scope, const std::string& x, std::int64_t channels, std::int64_t side)
    {
        return e_.op(scope, "Relu", {x}, type(channels, side));
    }

    static TensorType type(std::int64_t channels, std::int64_t side)
    {
        return {DataType::Float32, TensorShape({Dimension::symbolic("batch"), Dimension::known(channels),
                                                Dimension::known(side), Dimension::known(side)})};
    }

private:
    TorchScriptEmitter& e_;
};

}  // namespace

Graph buildResNet(const ModelSpec& spec, const std::string& graphName)
{
    TorchScriptEmitter e(graphName);
    ResNetEmitter r(e);
    const Dimension batch = Dimension::symbolic("batch");
    e.input("input", DataType::Float32,
            TensorShape({batch, Dimension::known(kChannels), Dimension::known(spec.imageSize),
                         Dimension::known(spec.imageSize)}));

    std::int64_t side = spec.imageSize / 2;
    std::string x = r.conv("conv1", "input", kChannels, spec.hidden, 7, 2, side);
    x = r.relu("relu", r.batchNorm("bn1", x, spec.hidden, side), spec.hidden, side);
    side /= 2;
    x = e.op("maxpool", "MaxPool", {x}, ResNetEmitter::type(spec.hidden, side),
             {{"ceil_mode", std::int64_t{0}},
              {"dilations", std::vector<std::int64_t>{1, 1}},
              {"kernel_shape", std::vector<std::int64_t>{3, 3}},
              {"pads", std::vector<std::int64_t>{1, 1, 1, 1}},
              {"strides", std::vector<std::int64_t>{2, 2}}});

    std::int64_t channels = spec.hidden;
    for (std::size_t stage = 0; stage < spec.stageBlocks.size(); ++stage) {
        const std::string stageScope = "layer" + std::to_string(stage + 1);
        const std::int64_t width = spec.hidden << stage;
        const std::int64_t out = width * kExpansion;
        for (std::int64_t index = 0; index < spec.stageBlocks[stage]; ++index) {
            const std::string block = stageScope + "/" + stageScope + "." + std::to_string(index);
            const std::int64_t stride = (index == 0 && stage > 0) ? 2 : 1;
            const std::int64_t inSide = side;
            side /= stride;
            std::string y = r.conv(block + "/conv1", x, channels, width, 1, 1, inSide);
            y = r.relu(block + "/relu", r.batchNorm(block + "/bn1", y, width, inSide), width, inSide);
            y = r.conv(block + "/conv2", y, width, width, 3, stride, side);
            y = r.relu(block + "/relu_1", r.batchNorm(block + "/bn2", y, width, side), width, side);
            y = r.batchNorm(block + "/bn3", r.conv(block + "/conv3", y, width, out, 1, 1, side), out, side);
            std::string identity = x;
            if (index == 0) {
                const std::string downsample = block + "/downsample";
                identity = r.conv(downsample + "/downsample.0", x, channels, out, 1, stride, side);
                identity = r.batchNorm(downsample + "/downsample.1", identity, out, side);
            }
            const std::string sum = e.op(block, "Add", {y, identity}, ResNetEmitter::type(out, side));
            x = r.relu(block + "/relu_2", sum, out, side);
            channels = out;
        }
    }

    x = e.op("avgpool", "GlobalAveragePool", {x}, ResNetEmitter::type(channels, 1));
    const std::string flat = e.op("", "Flatten", {x}, {DataType::Float32, TensorShape({batch, Dimension::known(channels)})},
                                  {{"axis", std::int64_t{1}}});
    e.op("fc", "Gemm", {flat, e.weight("fc.weight", {spec.classes, channels}), e.weight("fc.bias", {spec.classes})},
         {DataType::Float32, TensorShape({batch, Dimension::known(spec.classes)})},
         {{"alpha", 1.0}, {"beta", 1.0}, {"transB", std::int64_t{1}}}, "logits");
    e.markOutput("logits");
    return e.finish();
}

}  // namespace tapestry
