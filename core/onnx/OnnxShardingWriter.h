#pragma once

#include "onnx/OnnxShardingAnnotations.h"

#include <filesystem>
#include <string>

namespace tapestry {

// The ONNX model `source` with `annotations` added, as the bytes of a model file: each
// listed node gets its device_configurations, the model its configuration entries and
// metadata_props (an entry with the same key is replaced; annotations a previous export
// left are dropped first). On this platform's ONNX 1.12 schema the new fields are
// unknown fields, written in protobuf's wire format. Everything else, external-data
// references included, is copied unchanged and no weight file is opened (external data
// paths are relative to the model's folder: write the result beside the source).
// Throws tapestry::Error: FileNotFound, ReadFailed, NotOnnx for an unreadable source;
// InvalidArgument for a node index past the main graph's node count.
[[nodiscard]] std::string annotateOnnxModel(const std::filesystem::path& source,
                                            const OnnxShardingAnnotations& annotations);

}  // namespace tapestry
