#include "iopddl/IopddlReader.h"

#include "base/Error.h"
#include "base/TextPosition.h"
#include "iopddl/GzipTextFile.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <functional>
#include <optional>

namespace tapestry {

namespace {

// Nesting the reader follows into members it does not know (the format needs 4).
constexpr int kMaxDepth = 256;

// "[7]". Built by appending: GCC 12 warns falsely (-Wrestrict) on "[" + to_string(i).
std::string bracketed(std::size_t i)
{
    std::string text = "[";
    text += std::to_string(i);
    text += ']';
    return text;
}

// A JSON number as the format wants it: whole and within 64 bits, exactly. Digits alone
// are read as integers; a fraction or exponent goes through a double (as 1e18 or
// -9.2e18 in hand-written files), which must then be whole and below 2^63 in size.
struct Number {
    std::optional<std::int64_t> integer;
    double value = 0;
};

// Reads the IOPDDL document straight from its text into a ShardingProblem, one pass,
// no intermediate tree (a 93 MB problem holds some 10 million numbers). Syntax errors
// are InvalidJson naming the line and column; content errors InvalidShardingProblem
// naming the entry, e.g. "nodes.costs[3][1]".
class IopddlParser {
public:
    IopddlParser(std::string_view text, const std::string& fileName) : text_(text), fileName_(fileName) {}

    ShardingProblem parse()
    {
        skipSpace();
        if (peek() != '{')
            fail("the document must be an object with a \"problem\" member");
        bool found = false;
        members("the document", [&](const std::string& key) {
            if (key != "problem")
                return false;
            found = true;
            if (peek() != '{')
                fail("\"problem\" must be an object");
            problemObject();
            return true;
        });
        skipSpace();
        if (at_ != text_.size())
            syntax("unexpected text after the document");
        if (!found)
            fail("the document has no \"problem\"");
        return assemble();
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(ErrorCode::InvalidShardingProblem, fileName_, what);
    }

    [[noreturn]] void syntax(const std::string& what) const
    {
        throw Error(ErrorCode::InvalidJson, fileName_, lineAndColumn(text_, at_) + ": " + what);
    }

    [[nodiscard]] char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

    void skipSpace()
    {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t'))
            ++at_;
    }

    void expect(char c)
    {
        skipSpace();
        if (peek() != c)
            syntax(std::string("expected '") + c + "'" + (at_ < text_.size() ? "" : " before the end of the text"));
        ++at_;
    }

    // What the value starting here is, for "must be an array, not a string".
    [[nodiscard]] const char* kindHere() const
    {
        switch (peek()) {
        case '{': return "object";
        case '[': return "array";
        case '"': return "string";
        case 't':
        case 'f': return "boolean";
        case 'n': return "null";
        default: return "number";
        }
    }

    std::string string()
    {
        expect('"');
        std::string out;
        while (true) {
            if (at_ >= text_.size())
                syntax("unterminated string");
            const char c = text_[at_++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                syntax("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            const char e = peek();
            ++at_;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': appendUtf8(out, codePoint()); break;
            default: --at_; syntax("invalid escape in a string");
            }
        }
    }

    unsigned hex4()
    {
        unsigned value = 0;
        for (int k = 0; k < 4; ++k, ++at_) {
            const char c = peek();
            value *= 16;
            if (c >= '0' && c <= '9')
                value += static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                value += static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value += static_cast<unsigned>(c - 'A' + 10);
            else
                syntax("\\u needs four hex digits");
        }
        return value;
    }

    unsigned codePoint()
    {
        const unsigned first = hex4();
        if (first < 0xD800 || first > 0xDFFF)
            return first;
        if (first > 0xDBFF || peek() != '\\' || at_ + 1 >= text_.size() || text_[at_ + 1] != 'u')
            syntax("unpaired UTF-16 surrogate in a string");
        at_ += 2;
        const unsigned second = hex4();
        if (second < 0xDC00 || second > 0xDFFF)
            syntax("unpaired UTF-16 surrogate in a string");
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    }

    static void appendUtf8(std::string& out, unsigned cp)
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

    Number number()
    {
        skipSpace();
        const std::size_t begin = at_;
        const bool negative = peek() == '-';
        if (negative)
            ++at_;
        if (peek() < '0' || peek() > '9')
            syntax("expected a value");
        const bool leadingZero = peek() == '0';
        std::uint64_t magnitude = 0;
        bool overflow = false;
        std::size_t digits = 0;
        for (; peek() >= '0' && peek() <= '9'; ++at_, ++digits) {
            const auto digit = static_cast<std::uint64_t>(peek() - '0');
            overflow |= magnitude > (UINT64_MAX - digit) / 10;
            magnitude = magnitude * 10 + digit;
        }
        if (leadingZero && digits > 1) {
            at_ = begin + (negative ? 2 : 1);
            syntax("a number may not have leading zeros");
        }
        bool whole = true;
        if (peek() == '.') {
            whole = false;
            ++at_;
            if (peek() < '0' || peek() > '9')
                syntax("expected digits after the decimal point");
            while (peek() >= '0' && peek() <= '9')
                ++at_;
        }
        if (peek() == 'e' || peek() == 'E') {
            whole = false;
            ++at_;
            if (peek() == '+' || peek() == '-')
                ++at_;
            if (peek() < '0' || peek() > '9')
                syntax("expected digits in the exponent");
            while (peek() >= '0' && peek() <= '9')
                ++at_;
        }
        Number out;
        if (whole && !overflow && magnitude <= (negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1)) {
            out.integer = negative ? static_cast<std::int64_t>(std::uint64_t{0} - magnitude)
                                   : static_cast<std::int64_t>(magnitude);
            out.value = static_cast<double>(*out.integer);
            return out;
        }
        const auto [end, error] = std::from_chars(text_.data() + begin, text_.data() + at_, out.value);
        if (error == std::errc::result_out_of_range || !std::isfinite(out.value))
            syntax("number out of range");
        (void)end;
        // 2^63 is exact as a double; anything at or above it does not fit.
        if (out.value == std::floor(out.value) && out.value >= -9223372036854775808.0 && out.value < 9223372036854775808.0)
            out.integer = static_cast<std::int64_t>(out.value);
        return out;
    }

    void literal(std::string_view word)
    {
        if (text_.substr(at_, word.size()) != word)
            syntax("expected a value");
        at_ += word.size();
    }

    // Any value, checked for syntax and dropped (members the format does not use).
    void skipValue(int depth = 0)
    {
        if (depth > kMaxDepth)
            syntax("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
        skipSpace();
        switch (peek()) {
        case '{':
            members("an object", [&](const std::string&) { return false; }, depth + 1);
            break;
        case '[':
            elements([&](std::size_t) { skipValue(depth + 1); });
            break;
        case '"': (void)string(); break;
        case 't': literal("true"); break;
        case 'f': literal("false"); break;
        case 'n': literal("null"); break;
        default: (void)number();
        }
    }

    // `take(key)` reads the member's value and returns true, or returns false to have it
    // skipped. A key the format reads may appear once.
    void members(const std::string& where, const std::function<bool(const std::string&)>& take, int depth = 0)
    {
        expect('{');
        std::vector<std::string> taken;
        skipSpace();
        if (peek() == '}') {
            ++at_;
            return;
        }
        while (true) {
            skipSpace();
            const std::size_t keyAt = at_;
            const std::string key = string();
            expect(':');
            skipSpace();
            if (at_ >= text_.size())
                syntax("expected a value before the end of the text");
            if (take(key)) {
                if (std::find(taken.begin(), taken.end(), key) != taken.end()) {
                    at_ = keyAt;
                    syntax("duplicate member \"" + key + "\" in " + where);
                }
                taken.push_back(key);
            } else {
                skipValue(depth);
            }
            skipSpace();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            expect('}');
            return;
        }
    }

    // Calls `each(index)` with the position at each element.
    template <typename Each>
    void elements(Each&& each)
    {
        expect('[');
        skipSpace();
        if (peek() == ']') {
            ++at_;
            return;
        }
        for (std::size_t k = 0;; ++k) {
            skipSpace();
            each(k);
            skipSpace();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            expect(']');
            return;
        }
    }

    void requireArray(const std::string& where)
    {
        skipSpace();
        if (at_ >= text_.size())
            syntax("expected a value before the end of the text");
        if (peek() != '[')
            fail(where + " must be an array, not " + kindHere());
    }

    // `where()` names the entry, built only for an error.
    template <typename Where>
    std::int64_t integer(const Where& where)
    {
        skipSpace();
        if (peek() == '{' || peek() == '[' || peek() == '"' || peek() == 't' || peek() == 'f' || peek() == 'n')
            fail(where() + " must be a number, not " + kindHere());
        const Number n = number();
        if (!n.integer)
            fail(where() + " must be a whole number that fits in 64 bits");
        return *n.integer;
    }

    // An array of arrays of whole numbers, e.g. nodes.costs; `nonNegative` for costs
    // and usages (forbidden pairs carry a huge cost, not a negative one).
    std::vector<std::vector<std::int64_t>> rows(const std::string& where, bool nonNegative)
    {
        std::vector<std::vector<std::int64_t>> out;
        requireArray(where);
        elements([&](std::size_t i) {
            requireArray(where + bracketed(i));
            std::vector<std::int64_t>& row = out.emplace_back();
            elements([&](std::size_t k) {
                const std::int64_t value = integer([&] { return where + bracketed(i) + bracketed(k); });
                if (nonNegative && value < 0)
                    fail(where + bracketed(i) + bracketed(k) + " = " + std::to_string(value) + " is negative");
                row.push_back(value);
            });
        });
        return out;
    }

    // Pairs such as nodes.intervals ("[lo, hi]") and edges.nodes ("[u, v]").
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs(const std::string& where, const char* shape)
    {
        std::vector<std::pair<std::int64_t, std::int64_t>> out;
        std::vector<std::vector<std::int64_t>> all = rows(where, false);
        out.reserve(all.size());
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (all[i].size() != 2)
                fail(where + bracketed(i) + " must be " + shape + ", not " + std::to_string(all[i].size()) + " numbers");
            out.emplace_back(all[i][0], all[i][1]);
        }
        return out;
    }

    void problemObject()
    {
        members("\"problem\"", [&](const std::string& key) {
            if (key == "name") {
                if (peek() == '"')
                    name_ = string();
                else
                    skipValue();
            } else if (key == "nodes") {
                if (peek() != '{')
                    fail("\"nodes\" must be an object, not " + std::string(kindHere()));
                nodesSeen_ = true;
                members("\"nodes\"", [&](const std::string& member) {
                    if (member == "intervals")
                        intervals_ = pairs("nodes.intervals", "[lo, hi]");
                    else if (member == "costs")
                        costs_ = rows("nodes.costs", true);
                    else if (member == "usages")
                        usages_ = rows("nodes.usages", true);
                    else
                        return false;
                    return true;
                });
            } else if (key == "edges") {
                if (peek() != '{')
                    fail("\"edges\" must be an object, not " + std::string(kindHere()));
                edgesSeen_ = true;
                members("\"edges\"", [&](const std::string& member) {
                    if (member == "nodes")
                        ends_ = pairs("edges.nodes", "[u, v]");
                    else if (member == "costs")
                        edgeCosts_ = rows("edges.costs", true);
                    else
                        return false;
                    return true;
                });
            } else if (key == "usage_limit") {
                if (peek() == 'n')
                    literal("null");
                else
                    limit_ = integer([] { return std::string("usage_limit"); });
            } else {
                return false;
            }
            return true;
        });
    }

    ShardingProblem assemble()
    {
        if (!nodesSeen_)
            fail("\"problem\" has no \"nodes\"");
        if (!intervals_)
            fail("\"nodes\" has no \"intervals\"");
        if (!costs_)
            fail("\"nodes\" has no \"costs\"");
        if (!usages_)
            fail("\"nodes\" has no \"usages\"");
        const std::size_t count = intervals_->size();
        if (costs_->size() != count)
            fail("nodes.costs has " + std::to_string(costs_->size()) + " entries but there are "
                 + std::to_string(count) + " intervals");
        if (usages_->size() != count)
            fail("nodes.usages has " + std::to_string(usages_->size()) + " entries but there are "
                 + std::to_string(count) + " intervals");
        ShardingProblem problem;
        problem.name = std::move(name_);
        problem.nodes.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            ProblemNode& node = problem.nodes[i];
            const std::string index = bracketed(i);
            node.lo = (*intervals_)[i].first;
            node.hi = (*intervals_)[i].second;
            if (node.lo < 0 || node.hi < node.lo)
                fail("nodes.intervals" + index + " = [" + std::to_string(node.lo) + ", " + std::to_string(node.hi)
                     + "] is negative or reversed");
            node.costs = std::move((*costs_)[i]);
            node.usages = std::move((*usages_)[i]);
            if (node.costs.empty())
                fail("nodes.costs" + index + " is empty: node " + std::to_string(i) + " has no strategy");
            if (node.usages.size() != node.costs.size())
                fail("nodes.usages" + index + " has " + std::to_string(node.usages.size())
                     + " entries but nodes.costs" + index + " has " + std::to_string(node.costs.size()));
        }

        if (!edgesSeen_)
            fail("\"problem\" has no \"edges\"");
        if (!ends_)
            fail("\"edges\" has no \"nodes\"");
        if (!edgeCosts_)
            fail("\"edges\" has no \"costs\"");
        if (edgeCosts_->size() != ends_->size())
            fail("edges.costs has " + std::to_string(edgeCosts_->size()) + " entries but there are "
                 + std::to_string(ends_->size()) + " edges in edges.nodes");
        problem.edges.resize(ends_->size());
        for (std::size_t e = 0; e < ends_->size(); ++e) {
            ProblemEdge& edge = problem.edges[e];
            const std::string index = bracketed(e);
            for (const std::int64_t end : {(*ends_)[e].first, (*ends_)[e].second})
                if (end < 0 || end >= static_cast<std::int64_t>(count))
                    fail("edges.nodes" + index + " names node " + std::to_string(end) + ", but there are "
                         + std::to_string(count) + " nodes");
            edge.u = static_cast<int>((*ends_)[e].first);
            edge.v = static_cast<int>((*ends_)[e].second);
            if (edge.u == edge.v)
                fail("edges.nodes" + index + " joins node " + std::to_string(edge.u) + " to itself");
            edge.costs = std::move((*edgeCosts_)[e]);
            const std::size_t rows = problem.nodes[static_cast<std::size_t>(edge.u)].costs.size();
            const std::size_t columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
            if (edge.costs.size() != rows * columns)
                fail("edges.costs" + index + " has " + std::to_string(edge.costs.size()) + " entries, but nodes "
                     + std::to_string(edge.u) + " and " + std::to_string(edge.v) + " have " + std::to_string(rows)
                     + " x " + std::to_string(columns) + " strategy pairs");
        }

        if (limit_) {
            if (*limit_ < 0)
                fail("usage_limit " + std::to_string(*limit_) + " is negative");
            problem.usageLimit = limit_;
        }
        problem.validate(fileName_);
        return problem;
    }

    std::string_view text_;
    const std::string& fileName_;
    std::size_t at_ = 0;

    std::string name_;
    bool nodesSeen_ = false;
    bool edgesSeen_ = false;
    std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> intervals_;
    std::optional<std::vector<std::vector<std::int64_t>>> costs_;
    std::optional<std::vector<std::vector<std::int64_t>>> usages_;
    std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> ends_;
    std::optional<std::vector<std::vector<std::int64_t>>> edgeCosts_;
    std::optional<std::int64_t> limit_;
};

}  // namespace

ShardingProblem parseIopddl(std::string_view text, const std::string& fileName)
{
    return IopddlParser(text, fileName).parse();
}

ShardingProblem readIopddlFile(const std::filesystem::path& file)
{
    return parseIopddl(readGzipOrTextFile(file), file.string());
}

}  // namespace tapestry
