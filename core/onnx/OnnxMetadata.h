#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

// The value of the ONNX model's metadata_props entry `key`, read without decoding the
// graph: the model's other top-level fields are skipped by seeking, so the answer costs
// the same for a model that carries gigabytes of weights (a file dropped on the window is
// asked whether it is a plan before anything else is read). Nothing when there is no such
// entry. Throws Error naming the file: FileNotFound, ReadFailed, or NotOnnx for bytes that
// are no ONNX ModelProto's top-level fields.
[[nodiscard]] std::optional<std::string> onnxMetadataValue(const std::filesystem::path& file, std::string_view key);

}  // namespace tapestry
