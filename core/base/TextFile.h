#pragma once

#include <filesystem>
#include <string>

namespace tapestry {

// The whole content of a text file (configs, logs). Throws Error naming the file:
// FileNotFound, NotARegularFile, EmptyFile or ReadFailed.
[[nodiscard]] std::string readTextFile(const std::filesystem::path& file);

}  // namespace tapestry
