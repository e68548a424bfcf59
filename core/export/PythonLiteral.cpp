#include "export/PythonLiteral.h"

#include "base/Error.h"
#include "base/TextPosition.h"
#include "base/Utf8.h"

#include <cctype>
#include <charconv>
#include <set>

namespace tapestry {

namespace {

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool isLineEnd(char c)
{
    return c == '\n' || c == '\r';
}

// Deeper nesting than any configuration needs; it bounds the recursion on hostile input.
constexpr int kMaxDepth = 64;

class LiteralReader {
public:
    LiteralReader(std::string_view text, std::size_t at, const std::string& fileName)
        : text_(text), at_(at), fileName_(fileName)
    {
    }

    JsonValue readStatement()
    {
        skipBlanks(false);
        if (atLineEnd())
            fail("expected a value after '='");
        JsonValue value = readValue(0);
        skipBlanks(false);
        if (peek() == ';')
            ++at_;
        skipBlanks(false);
        if (!atLineEnd())
            fail("expected the end of the line after the value (Tapestry reads literal values, not expressions)");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { failAt(at_, what); }

    [[noreturn]] void failAt(std::size_t at, const std::string& what) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, lineAndColumn(text_, at) + ": " + what);
    }

    char peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }

    bool atLineEnd() const { return at_ >= text_.size() || isLineEnd(text_[at_]) || text_[at_] == '#'; }

    // Spaces, comments, and line breaks where Python allows them: inside brackets, or
    // after a backslash that continues the line.
    void skipBlanks(bool lineBreaks)
    {
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == ' ' || c == '\t' || c == '\f') {
                ++at_;
            } else if (c == '\\' && isLineEnd(peek(1))) {
                at_ += peek(1) == '\r' && peek(2) == '\n' ? 3 : 2;
            } else if (lineBreaks && isLineEnd(c)) {
                ++at_;
            } else if (lineBreaks && c == '#') {
                while (at_ < text_.size() && !isLineEnd(text_[at_]))
                    ++at_;
            } else {
                return;
            }
        }
    }

    JsonValue readValue(int depth)
    {
        if (depth > kMaxDepth)
            fail("nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
        const bool inside = depth > 0;
        const char c = peek();
        if (c == '{')
            return readDictionary(depth);
        if (c == '[' || c == '(')
            return readSequence(depth);
        if (startsString())
            return readStrings(inside);
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' ||
            (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
            return readNumber(inside);
        if (isNameChar(c)) {
            const std::size_t start = at_;
            while (at_ < text_.size() && isNameChar(text_[at_]))
                ++at_;
            const std::string_view name = text_.substr(start, at_ - start);
            if (name == "True" || name == "False")
                return JsonValue(name == "True");
            if (name == "None")
                return JsonValue();
            failAt(start, "'" + std::string(name) +
                              "' is a name, not a value: Tapestry reads numbers, strings, True, False, None, "
                              "lists and dictionaries");
        }
        if (at_ >= text_.size())
            fail("the file ends where a value should be");
        fail("expected a value: a number, a string, True, False, None, a list or a dictionary");
    }

    JsonValue readDictionary(int depth)
    {
        const std::size_t open = at_++;
        JsonValue::Object members;
        std::set<std::string, std::less<>> keys;
        while (true) {
            skipBlanks(true);
            if (peek() == '}')
                break;
            const std::size_t keyAt = at_;
            if (!startsString())
                fail(at_ >= text_.size() ? unclosed(open) : "expected a key in quotes or '}'");
            JsonValue key = readStrings(true);
            const std::string& name = key.asString();
            if (!keys.insert(name).second)
                failAt(keyAt, "key \"" + name + "\" is given twice (Python keeps the last)");
            skipBlanks(true);
            if (peek() != ':')
                fail(at_ >= text_.size() ? unclosed(open) : "expected ':' after the key");
            ++at_;
            skipBlanks(true);
            JsonValue value = readValue(depth + 1);
            members.emplace_back(name, std::move(value));
            skipBlanks(true);
            if (peek() == ',') {
                ++at_;
                continue;
            }
            if (peek() == '}')
                break;
            fail(at_ >= text_.size() ? unclosed(open)
                                     : "expected ',' or '}' (Tapestry reads literal values, not expressions)");
        }
        ++at_;
        return JsonValue(std::move(members));
    }

    // A list, or a tuple; `(value)` without a comma is the value itself, as in Python.
    JsonValue readSequence(int depth)
    {
        const std::size_t open = at_;
        const char close = text_[at_++] == '[' ? ']' : ')';
        JsonValue::Array items;
        bool comma = false;
        while (true) {
            skipBlanks(true);
            if (peek() == close)
                break;
            if (at_ >= text_.size())
                fail(unclosed(open));
            items.push_back(readValue(depth + 1));
            skipBlanks(true);
            if (peek() == ',') {
                ++at_;
                comma = true;
                continue;
            }
            if (peek() == close)
                break;
            fail(at_ >= text_.size() ? unclosed(open)
                                     : std::string("expected ',' or '") + close +
                                           "' (Tapestry reads literal values, not expressions)");
        }
        ++at_;
        if (close == ')' && items.size() == 1 && !comma)
            return std::move(items.front());
        return JsonValue(std::move(items));
    }

    std::string unclosed(std::size_t open) const
    {
        return std::string("the '") + text_[open] + "' at " + lineAndColumn(text_, open) + " is not closed";
    }

    // A string literal starts here: a quote, after at most two prefix letters.
    bool startsString() const
    {
        std::size_t i = 0;
        while (i < 2 && std::isalpha(static_cast<unsigned char>(peek(i))))
            ++i;
        return peek(i) == '"' || peek(i) == '\'';
    }

    // One string, or adjacent ones joined as Python joins them.
    JsonValue readStrings(bool inside)
    {
        std::string value;
        do {
            readString(value);
            skipBlanks(inside);
        } while (startsString());
        return JsonValue(std::move(value));
    }

    void readString(std::string& value)
    {
        const std::size_t start = at_;
        bool raw = false;
        while (peek() != '"' && peek() != '\'') {
            const char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[at_])));
            if (prefix == 'r')
                raw = true;
            else if (prefix != 'u')
                failAt(start, "a string with prefix '" + std::string(text_.substr(start, at_ - start + 1)) +
                                  "' is not a literal Tapestry reads (plain, u or r strings are)");
            ++at_;
        }
        const char quote = text_[at_];
        const bool triple = peek(1) == quote && peek(2) == quote;
        at_ += triple ? 3 : 1;
        while (true) {
            if (at_ >= text_.size() || (!triple && isLineEnd(text_[at_])))
                failAt(start, "the string is not closed");
            const char c = text_[at_];
            if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
                at_ += triple ? 3 : 1;
                return;
            }
            if (c == '\\' && !raw) {
                readEscape(value);
                continue;
            }
            if (c == '\\' && raw && at_ + 1 < text_.size()) {  // a raw string keeps both characters
                value += text_.substr(at_, 2);
                at_ += 2;
                continue;
            }
            value += c;
            ++at_;
        }
    }

    void readEscape(std::string& value)
    {
        const std::size_t start = at_++;
        if (at_ >= text_.size())
            failAt(start, "the string is not closed");
        const char c = text_[at_++];
        switch (c) {
        case '\n':
            return;
        case '\r':
            if (peek() == '\n')
                ++at_;
            return;
        case '\\': value += '\\'; return;
        case '\'': value += '\''; return;
        case '"': value += '"'; return;
        case 'a': value += '\a'; return;
        case 'b': value += '\b'; return;
        case 'f': value += '\f'; return;
        case 'n': value += '\n'; return;
        case 'r': value += '\r'; return;
        case 't': value += '\t'; return;
        case 'v': value += '\v'; return;
        case 'x': return appendCodePoint(value, start, readHex(start, 2));
        case 'u': return appendCodePoint(value, start, readHex(start, 4));
        case 'U': return appendCodePoint(value, start, readHex(start, 8));
        case 'N': failAt(start, "\\N{...} escapes are not read: write the character itself");
        default: break;
        }
        if (c >= '0' && c <= '7') {
            char32_t code = static_cast<char32_t>(c - '0');
            for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i)
                code = code * 8 + static_cast<char32_t>(text_[at_++] - '0');
            return appendCodePoint(value, start, code);
        }
        value += '\\';  // Python keeps an unknown escape as written
        value += c;
    }

    char32_t readHex(std::size_t start, int digits)
    {
        char32_t code = 0;
        for (int i = 0; i < digits; ++i) {
            const char c = peek();
            if (!std::isxdigit(static_cast<unsigned char>(c)))
                failAt(start, "the escape needs " + std::to_string(digits) + " hexadecimal digits");
            code = code * 16 + static_cast<char32_t>(std::isdigit(static_cast<unsigned char>(c))
                                                         ? c - '0'
                                                         : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
            ++at_;
        }
        return code;
    }

    void appendCodePoint(std::string& value, std::size_t start, char32_t code) const
    {
        if (!appendUtf8(value, code))
            failAt(start, "the escape is not a character (a surrogate or past U+10FFFF)");
    }

    JsonValue readNumber(bool inside)
    {
        const std::size_t start = at_;
        bool negative = false;
        if (peek() == '-' || peek() == '+') {
            negative = text_[at_++] == '-';
            skipBlanks(inside);
            if (!std::isdigit(static_cast<unsigned char>(peek())) && peek() != '.')
                failAt(start, "expected a number after the sign");
        }
        const std::size_t digitsAt = at_;
        int base = 10;
        if (peek() == '0' && std::string_view("xXoObB").find(peek(1)) != std::string_view::npos && peek(1) != '\0') {
            const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
            base = letter == 'x' ? 16 : letter == 'o' ? 8 : 2;
            at_ += 2;
            if (peek() == '_')
                ++at_;
        }
        std::string digits;
        bool fraction = false;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '_') {
                // Python allows one underscore between two digits.
                if (digits.empty() || !std::isalnum(static_cast<unsigned char>(peek(1))))
                    failAt(at_, "an underscore in a number goes between two digits");
                ++at_;
                continue;
            }
            if (base == 10 && (c == '.' || c == 'e' || c == 'E')) {
                fraction = true;
                digits += c;
                ++at_;
                if ((c == 'e' || c == 'E') && (peek() == '-' || peek() == '+'))
                    digits += text_[at_++];
                continue;
            }
            if (!std::isalnum(static_cast<unsigned char>(c)))
                break;
            digits += c;
            ++at_;
        }
        const std::string written(text_.substr(digitsAt, at_ - digitsAt));
        const char* first = digits.data();
        const char* last = digits.data() + digits.size();
        if (fraction) {
            double number = 0;
            const auto [end, error] = std::from_chars(first, last, number);
            if (digits.empty() || error != std::errc() || end != last)
                failAt(start, "'" + written + "' is not a number");
            return JsonValue(negative ? -number : number);
        }
        std::uint64_t magnitude = 0;
        const auto [end, error] = std::from_chars(first, last, magnitude, base);
        if (digits.empty() || end != last || (error != std::errc() && error != std::errc::result_out_of_range))
            failAt(start, "'" + written + "' is not a number");
        if (base == 10 && digits.size() > 1 && digits.front() == '0' && magnitude != 0)
            failAt(start, "'" + written + "': Python does not allow leading zeros in a whole number");
        const std::uint64_t limit = std::uint64_t{1} << 63;
        if (error == std::errc::result_out_of_range || magnitude > (negative ? limit : limit - 1))
            failAt(start, "'" + written + "' is beyond what a 64-bit whole number holds");
        return JsonValue(negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude));
    }

    std::string_view text_;
    std::size_t at_;
    const std::string& fileName_;
};

}  // namespace

std::optional<std::size_t> findPythonAssignment(std::string_view text, std::string_view name, const std::string& fileName)
{
    std::optional<std::size_t> found;
    std::size_t foundAt = 0;
    // A UTF-8 byte-order mark, which Python skips, does not hide the first line.
    for (std::size_t line = text.starts_with("\xEF\xBB\xBF") ? 3 : 0; line < text.size();) {
        std::size_t end = line;
        while (end < text.size() && !isLineEnd(text[end]))
            ++end;
        const std::string_view content = text.substr(line, end - line);
        if (content.starts_with(name) && (content.size() == name.size() || !isNameChar(content[name.size()]))) {
            std::size_t at = name.size();
            while (at < content.size() && (content[at] == ' ' || content[at] == '\t'))
                ++at;
            if (at < content.size() && content[at] == ':') {  // an annotation: NAME: dict = {...}
                while (at < content.size() && content[at] != '=')
                    ++at;
            }
            if (at >= content.size() || content[at] != '=' || (at + 1 < content.size() && content[at + 1] == '='))
                throw Error(ErrorCode::InvalidPlan, fileName,
                            lineAndColumn(text, line) + ": changes or uses " + std::string(name) +
                                " outside its assignment; Tapestry reads the assigned literal alone, so write the "
                                "value there");
            if (found)
                throw Error(ErrorCode::InvalidPlan, fileName,
                            lineAndColumn(text, line) + ": assigns " + std::string(name) + " again (first at " +
                                lineAndColumn(text, foundAt) + "); Python keeps the last, so write it once");
            ++at;
            while (at < content.size() && (content[at] == ' ' || content[at] == '\t'))
                ++at;
            found = line + at;
            foundAt = line;
        }
        line = end + (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
    }
    return found;
}

JsonValue readPythonLiteral(std::string_view text, std::size_t offset, const std::string& fileName)
{
    return LiteralReader(text, offset, fileName).readStatement();
}

}  // namespace tapestry
