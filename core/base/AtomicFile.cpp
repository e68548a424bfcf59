#include "base/AtomicFile.h"

#include "base/Error.h"

#include <fstream>
#include <unistd.h>

namespace tapestry {

void writeFileAtomically(const std::filesystem::path& file, std::string_view bytes)
{
    const std::string shown = file.string();
    // Beside the target so that the rename stays on one file system.
    std::filesystem::path temp = file;
    temp += ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream stream(temp, std::ios::binary | std::ios::trunc);
        if (!stream)
            throw Error(ErrorCode::WriteFailed, shown, "cannot create '" + temp.string() + "'");
        stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        stream.close();
        if (!stream) {
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            throw Error(ErrorCode::WriteFailed, shown, "writing failed (disk full?)");
        }
    }
    std::error_code renameError;
    std::filesystem::rename(temp, file, renameError);
    if (renameError) {
        std::error_code ignored;
        std::filesystem::remove(temp, ignored);
        throw Error(ErrorCode::WriteFailed, shown, "cannot replace the file: " + renameError.message());
    }
}

}  // namespace tapestry
