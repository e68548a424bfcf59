#pragma once

#include <filesystem>
#include <string_view>

namespace tapestry {

// Finds a data file Tapestry ships (cluster presets, the default model) by its path
// under resources/: first an installed copy in <prefix>/share/tapestry next to
// <prefix>/bin (`executableDir`), then the source tree's resources/ (compiled in, so a
// binary run from its build directory finds it). Empty when neither exists.
[[nodiscard]] std::filesystem::path findResource(const std::filesystem::path& executableDir, std::string_view relative);

}  // namespace tapestry
