#include "base/JsonReader.h"

#include "base/Error.h"
#include "base/TextPosition.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iterator>
#include <limits>
#include <unordered_set>

namespace tapestry {

namespace {

constexpr std::size_t kMaxDepth = 256;
// Objects with more members than this check duplicates with a hash set; smaller ones
// compare with each member (cheaper for the many small objects of a plan or a record).
constexpr std::size_t kLinearKeyCheck = 16;

// A pointer into the text that records how far the parser has read, so that the
// problems found in the callbacks (duplicate keys, deep nesting) name a line and column.
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** reached) : at_(at), reached_(reached) {}
    reference operator*() const { return *at_; }
    TrackingIterator& operator++()
    {
        *reached_ = ++at_;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& other) const { return at_ == other.at_; }

private:
    const char* at_;
    const char** reached_;
};

// Builds JsonValues from nlohmann's SAX events (no intermediate DOM: large IOPDDL files
// are read once into the structure their reader walks).
class DocumentBuilder {
public:
    DocumentBuilder(std::string_view text, const std::string& fileName) : text_(text), fileName_(fileName) {}

    // Hands the elements of the top-level object's array `member` to `element` instead of
    // keeping them.
    void streamArray(std::string_view member, const std::function<void(JsonValue, std::size_t)>* element)
    {
        streamedMember_ = member;
        element_ = element;
    }

    const char* reached = nullptr;

    JsonValue take() { return std::move(root_); }

    bool null() { return add(JsonValue()); }
    bool boolean(bool flag) { return add(JsonValue(flag)); }
    bool number_integer(std::int64_t number) { return add(JsonValue(number)); }
    bool number_unsigned(std::uint64_t number)
    {
        // Above INT64_MAX: no cost or count fits there; a double says as much.
        if (number > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return add(JsonValue(static_cast<double>(number)));
        return add(JsonValue(static_cast<std::int64_t>(number)));
    }
    // nlohmann refuses numbers beyond a double's range itself (parse_error below).
    bool number_float(double number, const std::string& /*text*/) { return add(JsonValue(number)); }
    bool string(std::string& text) { return add(JsonValue(std::move(text))); }
    bool binary(nlohmann::json::binary_t& /*bytes*/) { return true; }  // JSON text has none

    bool start_object(std::size_t /*size*/) { return open(true); }
    bool start_array(std::size_t /*size*/) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& name)
    {
        Frame& frame = frames_.back();
        const bool duplicate = frame.members.size() < kLinearKeyCheck ? hasMember(frame.members, name)
                                                                      : !frame.keys.insert(name).second;
        if (duplicate)
            fail(keyStart(), "duplicate member \"" + name + "\"");
        if (frame.members.size() + 1 == kLinearKeyCheck) {
            for (const auto& member : frame.members)
                frame.keys.insert(member.first);
            frame.keys.insert(name);
        }
        frame.key = std::move(name);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& /*lastToken*/, const nlohmann::json::exception& error)
    {
        // nlohmann's message: "[json.exception.parse_error.101] parse error at line 2,
        // column 14: syntax error while parsing object key - ..." or "[json.exception.
        // out_of_range.406] number overflow parsing '1e400'": the line and column are
        // said once, in our words, so only the reason is kept.
        std::string reason = error.what();
        if (reason.starts_with("[json.exception.") && reason.find("] ") != std::string::npos)
            reason = reason.substr(reason.find("] ") + 2);
        if (reason.starts_with("parse error") && reason.find(": ") != std::string::npos)
            reason = reason.substr(reason.find(": ") + 2);
        fail(position == 0 ? 0 : position - 1, reason);
    }

private:
    struct Frame {
        bool isObject;
        bool streamed = false;  // the array whose elements go to element_
        std::size_t handed = 0;
        JsonValue::Array items;
        JsonValue::Object members;
        std::string key;
        std::unordered_set<std::string> keys;  // filled once the object is large
    };

    static bool hasMember(const JsonValue::Object& members, const std::string& name)
    {
        for (const auto& member : members) {
            if (member.first == name)
                return true;
        }
        return false;
    }

    std::size_t offsetReached() const { return reached ? static_cast<std::size_t>(reached - text_.data()) : 0; }
    // The offset of the last character read: the bracket that opened a level.
    std::size_t lastRead() const { return offsetReached() == 0 ? 0 : offsetReached() - 1; }

    // The opening quote of the key just read (the parser has read up to its closing one).
    std::size_t keyStart() const
    {
        std::size_t at = lastRead();
        while (at > 0) {
            --at;
            if (text_[at] == '"' && (at == 0 || text_[at - 1] != '\\'))
                return at;
        }
        return at;
    }

    [[noreturn]] void fail(std::size_t offset, const std::string& what) const
    {
        throw Error(ErrorCode::InvalidJson, fileName_, lineAndColumn(text_, offset) + ": " + what);
    }

    bool open(bool isObject)
    {
        // JsonValue's destructor recurses, so the depth stays bounded.
        if (frames_.size() >= kMaxDepth)
            fail(lastRead(), "nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
        const bool streamed = element_ && !isObject && frames_.size() == 1 && frames_.front().isObject &&
                              frames_.front().key == streamedMember_;
        frames_.push_back(Frame{isObject, streamed, 0, {}, {}, {}, {}});
        return true;
    }

    bool close()
    {
        Frame frame = std::move(frames_.back());
        frames_.pop_back();
        return add(frame.isObject ? JsonValue(std::move(frame.members)) : JsonValue(std::move(frame.items)));
    }

    bool add(JsonValue value)
    {
        if (frames_.empty()) {
            root_ = std::move(value);
            return true;
        }
        Frame& frame = frames_.back();
        if (frame.streamed)
            (*element_)(std::move(value), frame.handed++);
        else if (frame.isObject)
            frame.members.emplace_back(std::move(frame.key), std::move(value));
        else
            frame.items.push_back(std::move(value));
        return true;
    }

    std::string_view text_;
    const std::string& fileName_;
    std::vector<Frame> frames_;
    JsonValue root_;
    std::string_view streamedMember_;
    const std::function<void(JsonValue, std::size_t)>* element_ = nullptr;
};

}  // namespace

JsonValue parseJson(std::string_view text, const std::string& fileName)
{
    return parseJsonStreaming(text, fileName, {}, {});
}

JsonValue parseJsonStreaming(std::string_view text, const std::string& fileName, std::string_view member,
                             const std::function<void(JsonValue, std::size_t)>& element)
{
    DocumentBuilder builder(text, fileName);
    if (element)
        builder.streamArray(member, &element);
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    nlohmann::json::sax_parse(TrackingIterator(begin, &builder.reached), TrackingIterator(end, &builder.reached),
                              &builder);
    return builder.take();
}

}  // namespace tapestry
