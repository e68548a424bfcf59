#pragma once

#include "graph/Attribute.h"
#include "graph/Graph.h"
#include "graph/GraphBuilder.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tapestry {

struct TensorType {
    DataType dtype = DataType::Float32;
    TensorShape shape;
};

// Adds ops to a GraphBuilder under the names the TorchScript ONNX exporter gives them,
// so that synthesized graphs look like real exports to the rest of the tool:
// - an op of type T in module scope "model/layers.0/self_attn" is named
//   "/model/layers.0/self_attn/T", then "..._1", "..._2" for later ops of the same type
//   in that scope; its outputs are "<name>_output_<i>";
// - weights are named by module path ("model.layers.0.self_attn.q_proj.weight"), are
//   float32 and external (no bytes);
// - every tensor gets its dtype and shape.
class TorchScriptEmitter {
public:
    explicit TorchScriptEmitter(std::string graphName);

    void input(const std::string& name, DataType dtype, TensorShape shape);
    // Returns `name`.
    std::string weight(std::string name, const std::vector<std::int64_t>& dims);
    // Returns the op's only output. `outputName` overrides the exporter's name (graph
    // outputs are named by the model: "logits").
    std::string op(const std::string& scope, const std::string& type, const std::vector<std::string>& inputs,
                   TensorType output, std::vector<Attribute> attributes = {}, std::string outputName = {});
    std::vector<std::string> opWithOutputs(const std::string& scope, const std::string& type,
                                           const std::vector<std::string>& inputs, std::vector<TensorType> outputs,
                                           std::vector<Attribute> attributes = {});
    // Constant ops, as the exporter emits them for shapes, axes and scalars.
    std::string int64s(const std::string& scope, const std::vector<std::int64_t>& values);
    std::string int64Scalar(const std::string& scope, std::int64_t value);
    // The value is not kept (graphs keep only int64 constants); the type is.
    std::string floatScalar(const std::string& scope);
    void markOutput(const std::string& name);

    [[nodiscard]] Graph finish();

private:
    std::string nodeName(const std::string& scope, const std::string& type);

    GraphBuilder builder_;
    std::unordered_map<std::string, int> opsPerScopeAndType_;
};

// Module path of a scope as PyTorch names parameters: "model/layers.0/mlp" ->
// "model.layers.0.mlp", "layer1/layer1.0/downsample/downsample.0" ->
// "layer1.0.downsample.0".
[[nodiscard]] std::string modulePath(const std::string& scope);

}  // namespace tapestry
