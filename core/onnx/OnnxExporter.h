#pragma once

#include "graph/Graph.h"

#include <filesystem>
#include <string>

namespace tapestry {

struct OnnxWriteOptions {
    std::string producerName = "tapestry-synth";
    std::string producerVersion;
    // Side file named in every initializer's external_data entry; empty means
    // "<stem>.weights.bin" next to the model file.
    std::string externalDataFile;
};

// Writes `graph` as an ONNX ModelProto (IR 8, opset 17) without weight bytes: every
// initializer is EXTERNAL with a location, offset and length in a side file that is
// never written, so re-import reads dims and dtypes only; an initializer whose bytes
// the graph holds (Initializer::data, a small constant a test builds) is written inline. Every tensor that has a known
// dtype or rank gets value_info (symbolic dims as dim_param), so re-import needs no
// shape inference. Subgraphs are written as GRAPH attributes.
// The file is replaced atomically (temp file + rename). Throws tapestry::Error
// (WriteFailed, the path) when it cannot be written.
void writeOnnxModel(const Graph& graph, const std::filesystem::path& file, const OnnxWriteOptions& options = {});

inline constexpr std::int64_t kWrittenIrVersion = 8;
inline constexpr std::int64_t kWrittenOpsetVersion = 17;

}  // namespace tapestry
