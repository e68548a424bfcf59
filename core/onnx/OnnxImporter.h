#pragma once

#include "graph/Graph.h"

#include <filesystem>

namespace tapestry {

struct OnnxImportOptions {
    // Keep the bytes of inline initializers in Initializer::data (numeric checks).
    // External data is never opened either way.
    bool keepInlineWeights = false;
};

// Reads an ONNX model file into a Graph: ops, tensors with shapes (the file's
// value_info, else ONNX shape inference, helped by evaluating the model's own shape
// computations), initializers (dims and dtype), scope paths (TorchScript node names or
// dynamo name-scope metadata), subgraphs of control-flow ops.
// Guarantees on return: op count equals the main graph's node count; every MatMul,
// Gemm and Conv has ranked input and output shapes, except those listed in
// info().unsizedOps (which a planner cannot price).
// Throws tapestry::Error naming the file and the problem: missing file, a directory,
// empty, not ONNX, truncated, unsupported IR version, invalid graph, contradictory
// shapes.
[[nodiscard]] Graph importOnnxModel(const std::filesystem::path& file, const OnnxImportOptions& options = {});

// Highest ONNX IR version this importer accepts. Newer fields of known IR versions
// arrive as unknown fields and are read where they matter (node metadata).
inline constexpr std::int64_t kMaxSupportedIrVersion = 11;
inline constexpr std::int64_t kMinSupportedIrVersion = 3;

}  // namespace tapestry
