#include "base/ResourceFiles.h"

namespace tapestry {

std::filesystem::path findResource(const std::filesystem::path& executableDir, std::string_view relative)
{
    const std::filesystem::path candidates[] = {
        executableDir / ".." / "share" / "tapestry" / relative,
        std::filesystem::path(TAPESTRY_SOURCE_RESOURCES_DIR) / relative,
    };
    for (const std::filesystem::path& candidate : candidates) {
        std::error_code ec;
        if (std::filesystem::exists(candidate, ec))
            return candidate.lexically_normal();
    }
    return {};
}

}  // namespace tapestry
