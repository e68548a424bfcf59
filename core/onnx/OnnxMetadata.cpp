#include "onnx/OnnxMetadata.h"

#include "base/Error.h"

#include <onnx/onnx_pb.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>

#include <fcntl.h>
#include <unistd.h>

#include <limits>

namespace tapestry {

namespace {

using google::protobuf::internal::WireFormatLite;

constexpr int kMetadataPropsField = 14;  // ModelProto.metadata_props

class ReadOnlyFile {
public:
    explicit ReadOnlyFile(const std::filesystem::path& file) : descriptor_(::open(file.c_str(), O_RDONLY)) {}
    ~ReadOnlyFile()
    {
        if (descriptor_ >= 0)
            ::close(descriptor_);
    }
    ReadOnlyFile(const ReadOnlyFile&) = delete;
    ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
    [[nodiscard]] int descriptor() const { return descriptor_; }

private:
    int descriptor_;
};

}  // namespace

std::optional<std::string> onnxMetadataValue(const std::filesystem::path& file, std::string_view key)
{
    const std::string shown = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        throw Error(ErrorCode::FileNotFound, shown, "no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::NotARegularFile, shown, "is not a regular file");
    const ReadOnlyFile opened(file);
    if (opened.descriptor() < 0)
        throw Error(ErrorCode::ReadFailed, shown, "cannot be opened for reading");
    // A FileInputStream skips by seeking (lseek), so the graph's bytes are never read.
    google::protobuf::io::FileInputStream stream(opened.descriptor());
    google::protobuf::io::CodedInputStream input(&stream);
    input.SetTotalBytesLimit(std::numeric_limits<int>::max());
    const auto notOnnx = [&] { return Error(ErrorCode::NotOnnx, shown, "is not an ONNX model"); };
    std::optional<std::string> value;
    bool anyField = false;
    while (const std::uint32_t tag = input.ReadTag()) {
        anyField = true;
        const bool metadata = WireFormatLite::GetTagFieldNumber(tag) == kMetadataPropsField &&
                              WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
        if (!metadata) {
            if (WireFormatLite::GetTagFieldNumber(tag) == 0 || !WireFormatLite::SkipField(&input, tag))
                throw notOnnx();
            continue;
        }
        std::uint32_t length = 0;
        if (!input.ReadVarint32(&length))
            throw notOnnx();
        const auto limit = input.PushLimit(static_cast<int>(length));
        onnx::StringStringEntryProto entry;
        if (!entry.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage())
            throw notOnnx();
        input.PopLimit(limit);
        if (entry.key() == key)
            value = entry.value();  // the last one, as protobuf's own parse keeps them all in order
    }
    // ReadTag gives 0 at the end of the file and on a malformed tag alike.
    if (!anyField || !input.ConsumedEntireMessage() || stream.GetErrno() != 0)
        throw notOnnx();
    return value;
}

}  // namespace tapestry
