#include "base/TextFile.h"

#include "base/Error.h"

#include <fstream>

namespace tapestry {

std::string readTextFile(const std::filesystem::path& file)
{
    const std::string shown = file.string();
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status))
        throw Error(ErrorCode::FileNotFound, shown, "no such file");
    if (!std::filesystem::is_regular_file(status))
        throw Error(ErrorCode::NotARegularFile, shown, "is not a regular file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(ErrorCode::ReadFailed, shown, "cannot be opened for reading");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0)
        throw Error(ErrorCode::ReadFailed, shown, "cannot determine the file size");
    std::string text(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    in.read(text.data(), size);
    if (!in)
        throw Error(ErrorCode::ReadFailed, shown, "could not be read completely");
    if (text.empty())
        throw Error(ErrorCode::EmptyFile, shown, "is empty (0 bytes)");
    return text;
}

}  // namespace tapestry
