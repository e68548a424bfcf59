#include "base/JsonWriter.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tapestry {

std::string jsonEscaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline()
{
    out_ += '\n';
    out_.append(levels_.size() * 2, ' ');
}

void JsonWriter::beforeValue()
{
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (levels_.empty())
        return;
    assert(!levels_.back().isObject && "a value inside an object needs a key first");
    if (!levels_.back().empty)
        out_ += ',';
    levels_.back().empty = false;
    newline();
}

JsonWriter& JsonWriter::beginObject()
{
    beforeValue();
    out_ += '{';
    levels_.push_back({true});
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    beforeValue();
    out_ += '[';
    levels_.push_back({false});
    return *this;
}

void JsonWriter::closeLevel(char bracket)
{
    assert(!levels_.empty());
    const bool wasEmpty = levels_.back().empty;
    levels_.pop_back();
    if (!wasEmpty)
        newline();
    out_ += bracket;
    if (levels_.empty())
        out_ += '\n';
}

JsonWriter& JsonWriter::endObject()
{
    assert(!levels_.empty() && levels_.back().isObject);
    closeLevel('}');
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    assert(!levels_.empty() && !levels_.back().isObject);
    closeLevel(']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    assert(!levels_.empty() && levels_.back().isObject && !afterKey_);
    if (!levels_.back().empty)
        out_ += ',';
    levels_.back().empty = false;
    newline();
    out_ += jsonEscaped(name);
    out_ += ": ";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text)
{
    beforeValue();
    out_ += jsonEscaped(text);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number)
{
    beforeValue();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number)
{
    beforeValue();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    beforeValue();
    if (!std::isfinite(number)) {
        out_ += "null";
        return *this;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", number);
    out_ += buffer;
    return *this;
}

JsonWriter& JsonWriter::shortestValue(double number)
{
    if (!std::isfinite(number))
        return value(number);
    beforeValue();
    char buffer[32];
    const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, number);
    out_.append(buffer, written.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
    beforeValue();
    out_ += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    out_ += "null";
    return *this;
}

}  // namespace tapestry
