#pragma once

#include <filesystem>
#include <string>

namespace tapestry {

// The whole content of a file that may be gzip-compressed (detected from its magic
// bytes, not its name); plain files are returned as they are. Throws Error naming the
// file: FileNotFound, NotARegularFile, EmptyFile, ReadFailed or TruncatedFile.
[[nodiscard]] std::string readGzipOrTextFile(const std::filesystem::path& file);

}  // namespace tapestry
