#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// The module path an op belongs to, one component per module level, e.g.
// {"model", "layers.0", "self_attn", "q_proj"}. Both exporters map to the same form:
// TorchScript names "/model/layers.0/self_attn/q_proj/MatMul" and dynamo name scopes
// ['', 'model', 'model.layers.0', 'model.layers.0.self_attn', ...].
class ScopePath {
public:
    ScopePath() = default;
    explicit ScopePath(std::vector<std::string> components) : components_(std::move(components)) {}

    // From a TorchScript node name: split on '/', drop the last part (the op itself).
    // Names that do not start with '/' carry no scope.
    [[nodiscard]] static ScopePath fromTorchScriptNodeName(std::string_view nodeName);
    // From the dynamo exporter's `pkg.torch.onnx.name_scopes` list (already split):
    // each entry extends the previous one by ".component"; the last entry names the
    // called function, not a module, and is dropped.
    [[nodiscard]] static ScopePath fromDynamoNameScopes(const std::vector<std::string>& scopes);

    [[nodiscard]] const std::vector<std::string>& components() const { return components_; }
    [[nodiscard]] bool isEmpty() const { return components_.empty(); }
    [[nodiscard]] std::size_t depth() const { return components_.size(); }
    // "model/layers.0/self_attn"; "" for the empty path.
    [[nodiscard]] std::string toString() const;
    // Dotted module path as PyTorch names it: "model.layers.0.self_attn".
    [[nodiscard]] std::string toModulePath() const;

    bool operator==(const ScopePath&) const = default;

private:
    std::vector<std::string> components_;
};

// Parses a Python list literal of strings as the dynamo exporter writes it:
// "['', 'model', 'model.layers.0']". Returns false if the text is not such a list.
[[nodiscard]] bool parsePythonStringList(std::string_view text, std::vector<std::string>& out);

}  // namespace tapestry
