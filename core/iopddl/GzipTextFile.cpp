#include "iopddl/GzipTextFile.h"

#include "base/Error.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>

namespace tapestry {

namespace {

// The most a problem file is taken to inflate when its gzip trailer says so: twice the
// most among the published problems (A: 93.4 MB from 1.46 MB, 64 to 1; G 19, M 36, S
// 30; generated family problems about 33).
constexpr std::uintmax_t kPlausibleInflation = 128;

// How many bytes the file holds once decompressed, as far as can be told without
// decompressing it: a gzip member's trailer ends with that size modulo 2^32 (ISIZE, RFC
// 1952), believed when it is at most kPlausibleInflation times the compressed size
// (several members, or bytes after the last one, which zlib skips, leave any number
// there); a plain file's size is its own. Only a reservation: reading stops at the real
// end whatever this says, growing the text past it as needed.
std::size_t expectedBytes(const std::filesystem::path& file, std::uintmax_t fileBytes, std::size_t maxBytes)
{
    std::ifstream in(file, std::ios::binary);
    unsigned char magic[2] = {};
    in.read(reinterpret_cast<char*>(magic), 2);
    if (!in || magic[0] != 0x1f || magic[1] != 0x8b)
        return static_cast<std::size_t>(std::min<std::uintmax_t>(fileBytes, maxBytes));
    unsigned char trailer[4] = {};
    in.seekg(-4, std::ios::end);
    in.read(reinterpret_cast<char*>(trailer), 4);
    if (!in)
        return 0;
    const std::uintmax_t size = trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | (std::uintmax_t{trailer[3]} << 24);
    if (size > fileBytes * kPlausibleInflation)
        return 0;
    return static_cast<std::size_t>(std::min(size, std::uintmax_t{maxBytes}));
}

}  // namespace

std::string readGzipOrTextFile(const std::filesystem::path& file, std::size_t maxBytes)
{
    const std::string name = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        throw Error(ErrorCode::FileNotFound, name, "no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::NotARegularFile, name, "not a regular file");
    const std::uintmax_t fileBytes = std::filesystem::file_size(file, ec);
    if (fileBytes == 0)
        throw Error(ErrorCode::EmptyFile, name, "the file is empty");

    // gzread passes non-gzip content through unchanged, so one path reads both.
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(name.c_str(), "rb"), &gzclose);
    if (!in)
        throw Error(ErrorCode::ReadFailed, name, "cannot open the file");
    gzbuffer(in.get(), 1 << 20);
    std::string text;
    constexpr unsigned kChunk = 1 << 22;
    // Reserved at once: grown chunk by chunk, the string is copied each time it doubles
    // and each new block is faulted in afresh (reading public A, 93 MB: more CPU than
    // decompressing it).
    text.reserve(expectedBytes(file, fileBytes, maxBytes) + kChunk);
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
