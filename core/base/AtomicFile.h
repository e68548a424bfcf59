#pragma once

#include <filesystem>
#include <string_view>

namespace tapestry {

// Writes a whole file (text or bytes) atomically: a temporary file beside the target,
// renamed over it, so a reader never sees half a file and a failed write leaves the old
// one. The one way the project writes files. Throws Error(WriteFailed, file).
void writeFileAtomically(const std::filesystem::path& file, std::string_view bytes);

}  // namespace tapestry
