#include "synth/TorchScriptEmitter.h"

namespace tapestry {

namespace {

ModelInfo synthInfo(std::string graphName)
{
    ModelInfo info;
    info.producerName = "tapestry-synth";
    info.graphName = std::move(graphName);
    return info;
}

}  // namespace

std::string modulePath(const std::string& scope)
{
    std::string path;
    std::string previous;
    std::size_t start = 0;
    while (start <= scope.size()) {
        const std::size_t slash = scope.find('/', start);
        const std::size_t end = slash == std::string::npos ? scope.size() : slash;
        const std::string component = scope.substr(start, end - start);
        // A called nn.Sequential scopes its children by qualified name
        // ("layer1/layer1.0"): the child's name already contains the parent's.
        if (!previous.empty() && component.rfind(previous + ".", 0) == 0)
            path.resize(path.size() - previous.size());
        else if (!path.empty())
            path += '.';
        path += component;
        previous = component;
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    return path;
}

TorchScriptEmitter::TorchScriptEmitter(std::string graphName) : builder_(synthInfo(std::move(graphName))) {}

void TorchScriptEmitter::input(const std::string& name, DataType dtype, TensorShape shape)
{
    builder_.addInput(name, dtype, std::move(shape));
}

std::string TorchScriptEmitter::weight(std::string name, const std::vector<std::int64_t>& dims)
{
    Initializer initializer;
    initializer.name = name;
    initializer.dtype = DataType::Float32;
    initializer.dims = dims;
    initializer.elementCount = 1;
    for (const std::int64_t d : dims)
        initializer.elementCount *= static_cast<std::uint64_t>(d);
    initializer.byteSize = initializer.elementCount * static_cast<std::uint64_t>(dataTypeBits(initializer.dtype)) / 8;
    initializer.location = DataLocation::External;
    builder_.addInitializer(std::move(initializer));
    return name;
}

std::string TorchScriptEmitter::nodeName(const std::string& scope, const std::string& type)
{
    std::string name(1, '/');
    if (!scope.empty())
        name.append(scope).append(1, '/');
    name.append(type);
    const int seen = opsPerScopeAndType_[name]++;
    if (seen > 0)
        name.append(1, '_').append(std::to_string(seen));
    return name;
}

std::vector<std::string> TorchScriptEmitter::opWithOutputs(const std::string& scope, const std::string& type,
                                                           const std::vector<std::string>& inputs,
                                                           std::vector<TensorType> outputs,
                                                           std::vector<Attribute> attributes)
{
    std::string name = nodeName(scope, type);
    std::vector<std::string> outputNames;
    outputNames.reserve(outputs.size());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        outputNames.push_back(name + "_output_" + std::to_string(i));
        builder_.setTensorType(outputNames.back(), outputs[i].dtype, std::move(outputs[i].shape));
    }
    ScopePath path = ScopePath::fromTorchScriptNodeName(name);
    builder_.addOp(type, std::move(name), inputs, outputNames, std::move(attributes), std::move(path));
    return outputNames;
}

std::string TorchScriptEmitter::op(const std::string& scope, const std::string& type,
                                   const std::vector<std::string>& inputs, TensorType output,
                                   std::vector<Attribute> attributes, std::string outputName)
{
    std::string name = nodeName(scope, type);
    if (outputName.empty())
        outputName = name + "_output_0";
    builder_.setTensorType(outputName, output.dtype, std::move(output.shape));
    ScopePath path = ScopePath::fromTorchScriptNodeName(name);
    builder_.addOp(type, std::move(name), inputs, {outputName}, std::move(attributes), std::move(path));
    return outputName;
}

std::string TorchScriptEmitter::int64s(const std::string& scope, const std::vector<std::int64_t>& values)
{
    const auto count = static_cast<std::int64_t>(values.size());
    return op(scope, "Constant", {}, {DataType::Int64, TensorShape::ofExtents({count})},
              {{"value", AttributeTensor{DataType::Int64, {count}, values}}});
}

std::string TorchScriptEmitter::int64Scalar(const std::string& scope, std::int64_t value)
{
    return op(scope, "Constant", {}, {DataType::Int64, TensorShape::ofExtents({})},
              {{"value", AttributeTensor{DataType::Int64, {}, {value}}}});
}

std::string TorchScriptEmitter::floatScalar(const std::string& scope)
{
    return op(scope, "Constant", {}, {DataType::Float32, TensorShape::ofExtents({})},
              {{"value", AttributeTensor{DataType::Float32, {}, {}}}});
}

void TorchScriptEmitter::markOutput(const std::string& name)
{
    builder_.markOutput(name);
}

Graph TorchScriptEmitter::finish()
{
    return builder_.finish();
}

}  // namespace tapestry
