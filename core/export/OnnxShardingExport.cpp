#include "export/OnnxShardingExport.h"

#include "graph/Graph.h"
#include "base/Error.h"
#include "onnx/OnnxMetadata.h"
#include "onnx/OnnxShardingWriter.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace tapestry {

namespace {

// Which input of an anchor op is its weight, and which of the weight's dims holds the
// output features (the rest of a rank-2 weight being the input features).
struct WeightOperand {
    std::size_t input = 1;
    std::size_t outputFeatureDim = 1;
    std::size_t inputFeatureDim = 0;
};

WeightOperand weightOperand(const Op& op)
{
    if (op.type == "Gather")  // embedding table [vocab, hidden]: row splits the vocabulary
        return {0, 1, 0};
    if (op.type == "Conv")  // [out_channels, in_channels, k...]
        return {1, 0, 1};
    if (op.type == "Gemm") {
        const Attribute* transB = op.findAttribute("transB");
        const auto* flag = transB ? std::get_if<std::int64_t>(&transB->value) : nullptr;
        if (flag && *flag != 0)
            return {1, 0, 1};
    }
    return {1, 1, 0};  // MatMul: [in, out], the transpose of torch's nn.Linear.weight
}

// The tensor dim a split shards along one axis (or none), per operand role.
enum class Operand : std::uint8_t { Weight, Input, Output };

std::optional<std::size_t> shardedDim(AxisSplit split, Operand operand, const WeightOperand& weight, std::size_t rank)
{
    if (rank == 0)
        return std::nullopt;
    switch (operand) {
    case Operand::Weight:
        if (split == AxisSplit::Column)
            return weight.outputFeatureDim;
        if (split == AxisSplit::Row)
            return weight.inputFeatureDim;
        return std::nullopt;
    case Operand::Input:
        if (split == AxisSplit::Batch)
            return 0;
        if (split == AxisSplit::Row)
            return rank - 1;
        return std::nullopt;
    case Operand::Output:
        if (split == AxisSplit::Batch)
            return 0;
        if (split == AxisSplit::Column)
            return rank - 1;
        return std::nullopt;
    }
    return std::nullopt;
}

// Device ids are row-major over the mesh axes.
std::vector<std::int64_t> strides(const std::vector<MeshAxis>& mesh)
{
    std::vector<std::int64_t> result(mesh.size(), 1);
    for (std::size_t a = mesh.size(); a-- > 1;)
        result[a - 1] = result[a] * mesh[a].size;
    return result;
}

std::optional<OnnxShardingSpec> shardingSpec(const Tensor& tensor, const std::vector<std::optional<std::size_t>>& dims,
                                             const std::vector<MeshAxis>& mesh)
{
    // Tensor dims in ascending order, each with the mesh axes splitting it (in mesh order).
    std::map<std::size_t, std::vector<std::size_t>> axesByDim;
    for (std::size_t a = 0; a < dims.size(); ++a)
        if (dims[a] && mesh[a].size > 1)
            axesByDim[*dims[a]].push_back(a);
    if (axesByDim.empty())
        return std::nullopt;

    OnnxShardingSpec spec;
    spec.tensorName = tensor.name;
    std::vector<std::size_t> shardAxes;  // row-major order of the shards
    for (const auto& [dim, axes] : axesByDim) {
        OnnxSimpleSharding simple;
        for (const std::size_t a : axes)
            simple.numShards *= mesh[a].size;
        if (dim < tensor.shape.rank() && tensor.shape.dims()[dim].isKnown())
            simple.dimValue = tensor.shape.dims()[dim].value;
        else if (dim < tensor.shape.rank())
            simple.dimParam = tensor.shape.dims()[dim].symbol;
        spec.shardedDims.push_back({static_cast<std::int64_t>(dim), {simple}});
        shardAxes.insert(shardAxes.end(), axes.begin(), axes.end());
    }

    const std::vector<std::int64_t> stride = strides(mesh);
    std::int64_t deviceCount = 1;
    for (const MeshAxis& axis : mesh)
        deviceCount *= axis.size;
    std::int64_t shardCount = 1;
    for (const std::size_t a : shardAxes)
        shardCount *= mesh[a].size;
    for (std::int64_t shard = 0; shard < shardCount; ++shard) {
        // The shard's coordinate on each splitting axis (the last one fastest).
        std::map<std::size_t, std::int64_t> coordinate;
        std::int64_t rest = shard;
        for (std::size_t i = shardAxes.size(); i-- > 0;) {
            coordinate[shardAxes[i]] = rest % mesh[shardAxes[i]].size;
            rest /= mesh[shardAxes[i]].size;
        }
        std::vector<std::int64_t> group;
        for (std::int64_t device = 0; device < deviceCount; ++device) {
            const bool holds = std::all_of(coordinate.begin(), coordinate.end(), [&](const auto& c) {
                return (device / stride[c.first]) % mesh[c.first].size == c.second;
            });
            if (holds)
                group.push_back(device);
        }
        if (group.size() == 1) {
            spec.devices.push_back(group.front());
        } else {
            spec.devices.push_back(-(shard + 1));
            spec.deviceGroups.emplace_back(-(shard + 1), std::move(group));
        }
    }
    return spec;
}

}  // namespace

OnnxShardingAnnotations onnxShardingAnnotations(const Graph& graph, const CoarseGraph& coarse,
                                                const FamilyTable& families, const PlanDocument& document)
{
    const Plan& plan = document.plan;
    OnnxShardingAnnotations annotations;
    OnnxDeviceConfiguration configuration;
    configuration.name = "tapestry:" + plan.name;
    configuration.numDevices = 1;
    for (const MeshAxis& axis : plan.mesh)
        configuration.numDevices *= axis.size;
    for (int device = 0; device < configuration.numDevices; ++device)
        configuration.devices.push_back(std::to_string(device));

    for (const CoarseNode& node : coarse.nodes) {
        if (!node.anchor.isValid())
            continue;
        const Op& op = graph.op(node.anchor);
        const WeightOperand weight = weightOperand(op);
        const AxisSplits& splits = plan.strategy(node.id).axes;
        const std::size_t activation = weight.input == 0 ? 1 : 0;
        const std::array<std::pair<Operand, TensorId>, 3> operands = {
            std::pair{Operand::Input, activation < op.inputs.size() ? op.inputs[activation] : TensorId{}},
            std::pair{Operand::Weight, weight.input < op.inputs.size() ? op.inputs[weight.input] : TensorId{}},
            std::pair{Operand::Output, op.outputs.empty() ? TensorId{} : op.outputs.front()}};
        OnnxNodeConfiguration entry;
        entry.nodeIndex = node.anchor.index();
        entry.configurationId = configuration.name;
        for (const auto& [operand, id] : operands) {
            if (!id.isValid())
                continue;
            const Tensor& tensor = graph.tensor(id);
            std::vector<std::optional<std::size_t>> dims;
            for (const AxisSplit split : splits)
                dims.push_back(shardedDim(split, operand, weight, tensor.shape.rank()));
            if (std::optional<OnnxShardingSpec> spec = shardingSpec(tensor, dims, plan.mesh))
                entry.shardingSpecs.push_back(std::move(*spec));
        }
        if (!entry.shardingSpecs.empty())
            annotations.nodes.push_back(std::move(entry));
    }
    std::sort(annotations.nodes.begin(), annotations.nodes.end(),
              [](const OnnxNodeConfiguration& a, const OnnxNodeConfiguration& b) { return a.nodeIndex < b.nodeIndex; });
    annotations.configurations.push_back(std::move(configuration));
    annotations.metadata.emplace_back(kOnnxPlanMetadataKey, planToJson(document, coarse, families));
    return annotations;
}

std::string exportShardedOnnx(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                              const PlanDocument& document)
{
    return annotateOnnxModel(graph.info().sourcePath, onnxShardingAnnotations(graph, coarse, families, document));
}

PlanDocument importShardedOnnxPlan(const std::filesystem::path& file, const CoarseGraph& coarse,
                                   const FamilyTable& families)
{
    const std::optional<std::string> plan = onnxMetadataValue(file, kOnnxPlanMetadataKey);
    if (!plan)
        throw Error(ErrorCode::InvalidPlan, file.string(),
                    std::string("an ONNX model without a Tapestry plan (no metadata \"") + kOnnxPlanMetadataKey +
                        "\"; export --format onnx writes one)");
    return planFromJson(*plan, file.string(), coarse, families);
}

}  // namespace tapestry
