#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace tapestry {

// The most a sharding problem file may hold once decompressed: 1 GiB, ten times the
// largest published IOPDDL problem (A: 93 MB). A gzip bomb (a few MB that inflate to
// many GB) stops here instead of exhausting memory.
inline constexpr std::size_t kMaxDecompressedBytes = std::size_t{1} << 30;

// The whole content of a file that may be gzip-compressed (detected from its magic
// bytes, not its name); plain files are returned as they are. Throws Error naming the
// file: FileNotFound, NotARegularFile, EmptyFile, ReadFailed (also for content of more
// than `maxBytes`) or TruncatedFile.
[[nodiscard]] std::string readGzipOrTextFile(const std::filesystem::path& file,
                                             std::size_t maxBytes = kMaxDecompressedBytes);

}  // namespace tapestry
