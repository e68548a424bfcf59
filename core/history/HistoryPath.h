#pragma once

#include <filesystem>

namespace tapestry {

// Where the history lives unless told otherwise: $TAPESTRY_HISTORY if set, else
// $XDG_DATA_HOME/Tapestry/history.sqlite, else ~/.local/share/Tapestry/history.sqlite.
// Empty when none of TAPESTRY_HISTORY, XDG_DATA_HOME and HOME is set.
[[nodiscard]] std::filesystem::path defaultHistoryPath();

}  // namespace tapestry
