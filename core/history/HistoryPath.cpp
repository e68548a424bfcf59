#include "history/HistoryPath.h"

#include <cstdlib>

namespace tapestry {

std::filesystem::path defaultHistoryPath()
{
    auto variable = [](const char* name) {
        const char* value = std::getenv(name);
        return value ? std::string(value) : std::string();
    };
    if (const std::string explicitPath = variable("TAPESTRY_HISTORY"); !explicitPath.empty())
        return explicitPath;
    // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
    if (const std::string dataHome = variable("XDG_DATA_HOME"); !dataHome.empty() && dataHome.front() == '/')
        return std::filesystem::path(dataHome) / "Tapestry" / "history.sqlite";
    if (const std::string home = variable("HOME"); !home.empty())
        return std::filesystem::path(home) / ".local" / "share" / "Tapestry" / "history.sqlite";
    return {};
}

}  // namespace tapestry
