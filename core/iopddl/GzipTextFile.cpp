#include "iopddl/GzipTextFile.h"

#include "base/Error.h"

#include <zlib.h>

#include <memory>
#include <string>
#include <system_error>

namespace tapestry {

std::string readGzipOrTextFile(const std::filesystem::path& file, std::size_t maxBytes)
{
    const std::string name = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        throw Error(ErrorCode::FileNotFound, name, "no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::NotARegularFile, name, "not a regular file");
    if (std::filesystem::file_size(file, ec) == 0)
        throw Error(ErrorCode::EmptyFile, name, "the file is empty");

    // gzread passes non-gzip content through unchanged, so one path reads both.
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(name.c_str(), "rb"), &gzclose);
    if (!in)
        throw Error(ErrorCode::ReadFailed, name, "cannot open the file");
    gzbuffer(in.get(), 1 << 20);
    std::string text;
    constexpr unsigned kChunk = 1 << 22;
    while (true) {
        const std::size_t used = text.size();
        text.resize(used + kChunk);
        const int got = gzread(in.get(), text.data() + used, kChunk);
        if (got < 0) {
            int code = 0;
            const char* message = gzerror(in.get(), &code);
            throw Error(code == Z_BUF_ERROR ? ErrorCode::TruncatedFile : ErrorCode::ReadFailed, name,
                        std::string("decompression failed: ") + message);
        }
        text.resize(used + static_cast<std::size_t>(got));
        if (text.size() > maxBytes)
            throw Error(ErrorCode::ReadFailed, name,
                        "holds more than " + std::to_string(maxBytes) +
                            " bytes once decompressed (the limit for a sharding problem)");
        if (got < static_cast<int>(kChunk))
            break;
    }
    // A gzip stream cut short reads as a clean end without this check.
    int code = 0;
    gzerror(in.get(), &code);
    if (code == Z_BUF_ERROR)
        throw Error(ErrorCode::TruncatedFile, name, "the compressed stream ends early");
    return text;
}

}  // namespace tapestry
