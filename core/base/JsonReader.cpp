#include "base/JsonReader.h"

#include "base/Error.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace tapestry {

namespace {

constexpr int kMaxDepth = 256;

class Parser {
public:
    Parser(std::string_view text, const std::string& fileName) : text_(text), fileName_(fileName) {}

    JsonValue document()
    {
        JsonValue value = parseValue(0);
        skipWhitespace();
        if (pos_ != text_.size())
            fail("unexpected text after the JSON value");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw Error(ErrorCode::InvalidJson, fileName_,
                    "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
    }

    void skipWhitespace()
    {
        while (pos_ < text_.size()
               && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    bool consume(std::string_view literal)
    {
        if (text_.substr(pos_, literal.size()) != literal)
            return false;
        pos_ += literal.size();
        return true;
    }

    JsonValue parseValue(int depth)
    {
        if (depth > kMaxDepth)
            fail("nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
        skipWhitespace();
        if (pos_ >= text_.size())
            fail("unexpected end of input, a value is missing");
        const char c = text_[pos_];
        if (c == '{')
            return parseObject(depth);
        if (c == '[')
            return parseArray(depth);
        if (c == '"')
            return JsonValue(parseString());
        if (c == '-' || (c >= '0' && c <= '9'))
            return JsonValue(parseNumber());
        if (consume("true"))
            return JsonValue(true);
        if (consume("false"))
            return JsonValue(false);
        if (consume("null"))
            return JsonValue();
        fail(std::string("unexpected character '") + c + "'");
    }

    JsonValue parseObject(int depth)
    {
        ++pos_;  // '{'
        JsonValue::Object members;
        skipWhitespace();
        if (consume("}"))
            return JsonValue(std::move(members));
        while (true) {
            skipWhitespace();
            if (pos_ >= text_.size() || text_[pos_] != '"')
                fail("expected a quoted member name");
            const std::size_t keyPos = pos_;
            std::string key = parseString();
            for (const auto& member : members) {
                if (member.first == key) {
                    pos_ = keyPos;
                    fail("duplicate member \"" + key + "\"");
                }
            }
            skipWhitespace();
            if (!consume(":"))
                fail("expected ':' after member name \"" + key + "\"");
            JsonValue value = parseValue(depth + 1);
            members.emplace_back(std::move(key), std::move(value));
            skipWhitespace();
            if (consume("}"))
                return JsonValue(std::move(members));
            if (!consume(","))
                fail("expected ',' or '}' in object");
        }
    }

    JsonValue parseArray(int depth)
    {
        ++pos_;  // '['
        JsonValue::Array items;
        skipWhitespace();
        if (consume("]"))
            return JsonValue(std::move(items));
        while (true) {
            items.push_back(parseValue(depth + 1));
            skipWhitespace();
            if (consume("]"))
                return JsonValue(std::move(items));
            if (!consume(","))
                fail("expected ',' or ']' in array");
        }
    }

    unsigned parseHex4()
    {
        if (pos_ + 4 > text_.size())
            fail("truncated \\u escape");
        unsigned code = 0;
        const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, code, 16);
        if (ec != std::errc() || end != text_.data() + pos_ + 4)
            fail("invalid \\u escape");
        pos_ += 4;
        return code;
    }

    static void appendUtf8(std::string& out, std::uint32_t cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string parseString()
    {
        ++pos_;  // opening quote
        std::string out;
        while (true) {
            if (pos_ >= text_.size())
                fail("unterminated string");
            const char c = text_[pos_++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20) {
                --pos_;
                fail("control character inside a string");
            }
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size())
                fail("unterminated string");
            const char escape = text_[pos_++];
            switch (escape) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = parseHex4();
                if (cp >= 0xD800 && cp < 0xDC00) {
                    if (!consume("\\u"))
                        fail("unpaired surrogate in \\u escape");
                    const std::uint32_t low = parseHex4();
                    if (low < 0xDC00 || low >= 0xE000)
                        fail("unpaired surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    fail("unpaired surrogate in \\u escape");
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                --pos_;
                fail(std::string("invalid escape '\\") + escape + "'");
            }
        }
    }

    double parseNumber()
    {
        // Check the JSON grammar first: from_chars alone would accept "01" or "1.".
        const std::size_t start = pos_;
        auto digits = [&] {
            const std::size_t from = pos_;
            while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
                ++pos_;
            return pos_ - from;
        };
        if (text_[pos_] == '-')
            ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '0') {
            ++pos_;
        } else if (digits() == 0) {
            fail("invalid number");
        }
        if (pos_ < text_.size() && text_[pos_] == '.') {
            ++pos_;
            if (digits() == 0)
                fail("invalid number: digits must follow '.'");
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
                ++pos_;
            if (digits() == 0)
                fail("invalid number: digits must follow the exponent");
        }
        double number = 0;
        const auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, number);
        if (ec != std::errc() || end != text_.data() + pos_ || !std::isfinite(number)) {
            pos_ = start;
            fail("number out of range");
        }
        return number;
    }

    std::string_view text_;
    const std::string& fileName_;
    std::size_t pos_ = 0;
};

}  // namespace

JsonValue parseJson(std::string_view text, const std::string& fileName)
{
    return Parser(text, fileName).document();
}

}  // namespace tapestry
