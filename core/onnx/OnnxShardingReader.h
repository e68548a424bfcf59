#pragma once

#include "onnx/OnnxShardingAnnotations.h"

#include <filesystem>

namespace tapestry {

// The sharding annotations of an ONNX model: the main graph's nodes with
// device_configurations, the model's configuration entries and all its metadata_props.
// Throws tapestry::Error for a file that is not an ONNX model (as importOnnxModel) and
// InvalidModel for annotations that do not decode.
[[nodiscard]] OnnxShardingAnnotations readOnnxShardingAnnotations(const std::filesystem::path& file);

}  // namespace tapestry
