#pragma once

#include <filesystem>
#include <string_view>

namespace tapestry {

// Writes an exported file (text or bytes) atomically: a temporary file beside the
// target, renamed over it, so a reader never sees half a file. Throws
// Error(WriteFailed, file) when it cannot be written.
void writeExportFile(const std::filesystem::path& file, std::string_view bytes);

}  // namespace tapestry
