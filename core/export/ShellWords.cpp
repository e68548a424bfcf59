#include "export/ShellWords.h"

#include "base/Error.h"
#include "base/Utf8.h"

#include <cstdint>
#include <cstdio>

namespace tapestry {

namespace {

// The code point starting at `at` of valid UTF-8 text, and its length in bytes.
std::pair<char32_t, std::size_t> codePointAt(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return {lead, 1};
    if (lead < 0xE0)
        return {char32_t(lead & 0x1F) << 6 | (byte(1) & 0x3F), 2};
    if (lead < 0xF0)
        return {char32_t(lead & 0x0F) << 12 | char32_t(byte(1) & 0x3F) << 6 | (byte(2) & 0x3F), 3};
    return {char32_t(lead & 0x07) << 18 | char32_t(byte(1) & 0x3F) << 12 | char32_t(byte(2) & 0x3F) << 6 |
                (byte(3) & 0x3F),
            4};
}

const char* dashName(char32_t c)
{
    switch (c) {
    case 0x2010: return "a hyphen (U+2010)";
    case 0x2011: return "a non-breaking hyphen (U+2011)";
    case 0x2012: return "a figure dash (U+2012)";
    case 0x2013: return "an en dash (U+2013)";
    case 0x2014: return "an em dash (U+2014)";
    case 0x2015: return "a horizontal bar (U+2015)";
    case 0x2212: return "a minus sign (U+2212)";
    case 0xFE58: return "a small em dash (U+FE58)";
    case 0xFE63: return "a small hyphen-minus (U+FE63)";
    case 0xFF0D: return "a fullwidth hyphen-minus (U+FF0D)";
    default: return nullptr;
    }
}

bool isUnicodeSpace(char32_t c)
{
    return c == 0x00A0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) || c == 0x202F || c == 0x205F ||
           c == 0x3000 || c == 0xFEFF;
}

std::string codePointText(char32_t c)
{
    char text[16];
    std::snprintf(text, sizeof text, "U+%04X", static_cast<unsigned>(c));
    return text;
}

class ShellSplitter {
public:
    ShellSplitter(std::string_view text, const std::string& fileName) : text_(text), fileName_(fileName) {}

    std::vector<ShellWord> split()
    {
        checkText();
        if (text_.starts_with("\xEF\xBB\xBF"))
            at_ = 3;  // a byte-order mark
        while (at_ < text_.size())
            step();
        finishWord();
        if (arrayLine_ > 0)
            fail(arrayLine_, "the array " + arrayName_ + "=( opened here has no closing ')'");
        return std::move(words_);
    }

private:
    [[noreturn]] void fail(int line, const std::string& message) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, "line " + std::to_string(line) + ": " + message);
    }

    void checkText() const
    {
        const auto lineAt = [&](std::size_t offset) {
            int line = 1;
            for (std::size_t i = 0; i < offset; ++i)
                line += text_[i] == '\n';
            return line;
        };
        if (const auto bad = firstInvalidUtf8Byte(text_)) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text_[*bad]));
            fail(lineAt(*bad), std::string("byte ") + byte + " is not UTF-8 text: not a shell script");
        }
        for (std::size_t i = 0; i < text_.size(); ++i) {
            const auto c = static_cast<unsigned char>(text_[i]);
            if (c == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n'))
                fail(lineAt(i), "a line ends in CR alone: a shell reads the rest of the file as this line");
            if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7F)
                fail(lineAt(i), "control character " + codePointText(c) + ": not a shell script");
        }
    }

    void startWord()
    {
        if (!inWord_) {
            inWord_ = true;
            wordLine_ = line_;
        }
    }

    void finishWord()
    {
        if (!inWord_)
            return;
        inWord_ = false;
        if (dropNextWord_) {
            dropNextWord_ = false;
        } else {
            words_.push_back({ShellWord::Kind::Word, std::move(word_), wordLine_});
        }
        word_.clear();
    }

    void endCommand()
    {
        finishWord();
        if (!words_.empty() && words_.back().kind != ShellWord::Kind::CommandEnd)
            words_.push_back({ShellWord::Kind::CommandEnd, {}, line_});
    }

    char peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }

    // An unquoted character (or code point) of a word, checked for look-alikes.
    void unquotedCharacter()
    {
        const auto [c, length] = codePointAt(text_, at_);
        if (c >= 0x80) {
            if (const char* dash = dashName(c); dash && !inWord_)
                fail(line_, std::string("a word starts with ") + dash + " where a shell needs '-' (ASCII): '" +
                                wordAround() + "'");
            if (isUnicodeSpace(c))
                fail(line_, "a " + codePointText(c) + " space inside the word '" + wordAround() +
                                "': a shell splits words at ASCII spaces only");
        }
        startWord();
        word_.append(text_.substr(at_, length));
        at_ += length;
    }

    // The text of the word at the current position, for messages.
    std::string wordAround() const
    {
        std::size_t end = at_;
        while (end < text_.size() && text_[end] != ' ' && text_[end] != '\t' && text_[end] != '\n' && end - at_ < 60)
            ++end;
        return word_ + std::string(text_.substr(at_, end - at_));
    }

    void singleQuoted()
    {
        const int opened = line_;
        startWord();
        ++at_;
        while (at_ < text_.size() && text_[at_] != '\'') {
            line_ += text_[at_] == '\n';
            word_ += text_[at_++];
        }
        if (at_ >= text_.size())
            fail(opened, "the single quote opened here is not closed");
        ++at_;
    }

    void doubleQuoted()
    {
        const int opened = line_;
        startWord();
        ++at_;
        while (at_ < text_.size() && text_[at_] != '"') {
            char c = text_[at_++];
            if (c == '\\' && at_ < text_.size()) {
                const char next = text_[at_];
                if (next == '\n') {  // a continuation inside quotes
                    ++at_;
                    ++line_;
                    continue;
                }
                if (next == '"' || next == '\\' || next == '$' || next == '`') {
                    c = next;
                    ++at_;
                }
            }
            line_ += c == '\n';
            word_ += c;
        }
        if (at_ >= text_.size())
            fail(opened, "the double quote opened here is not closed");
        ++at_;
    }

    // $( ... ) and ${ ... } kept as written (the reader sees a value it cannot use).
    void substitution()
    {
        const int opened = line_;
        const char open = text_[at_ + 1];
        const char close = open == '(' ? ')' : '}';
        startWord();
        int depth = 0;
        do {
            const char c = text_[at_++];
            depth += c == open;
            depth -= c == close;
            line_ += c == '\n';
            word_ += c;
        } while (depth > 0 && at_ < text_.size());
        if (depth > 0)
            fail(opened, std::string("the $") + open + " opened here is not closed");
    }

    void redirection()
    {
        // An fd number before the operator ("2>") belongs to it.
        if (inWord_ && word_.find_first_not_of("0123456789") == std::string::npos) {
            inWord_ = false;
            word_.clear();
        } else {
            finishWord();
        }
        while (peek() == '>' || peek() == '<' || peek() == '&')
            ++at_;
        dropNextWord_ = true;
    }

    void step()
    {
        const char c = text_[at_];
        switch (c) {
        case ' ':
        case '\t':
        case '\r':
            finishWord();
            ++at_;
            return;
        case '\n':
            if (arrayLine_ > 0)
                finishWord();
            else
                endCommand();
            ++at_;
            ++line_;
            return;
        case '#':
            if (inWord_) {
                unquotedCharacter();
                return;
            }
            while (at_ < text_.size() && text_[at_] != '\n')
                ++at_;
            return;
        case '\\':
            if (peek(1) == '\n') {
                at_ += 2;
                ++line_;
                finishWord();
                return;
            }
            if (peek(1) == '\r' && peek(2) == '\n') {
                at_ += 3;
                ++line_;
                finishWord();
                return;
            }
            ++at_;
            if (at_ < text_.size())
                unquotedCharacter();
            return;
        case '\'':
            singleQuoted();
            return;
        case '"':
            doubleQuoted();
            return;
        case '$':
            if (peek(1) == '(' || peek(1) == '{') {
                substitution();
                return;
            }
            unquotedCharacter();
            return;
        case ';':
        case '|':
            endCommand();
            while (peek() == ';' || peek() == '|')
                ++at_;
            return;
        case '&':
            if (peek(1) == '>') {
                redirection();
                return;
            }
            endCommand();
            while (peek() == '&')
                ++at_;
            return;
        case '>':
        case '<':
            redirection();
            return;
        case '(':
            if (inWord_ && word_.ends_with("=") && arrayLine_ == 0) {
                arrayName_ = word_.substr(0, word_.size() - 1);
                words_.push_back({ShellWord::Kind::ArrayOpen, arrayName_, wordLine_});
                arrayLine_ = wordLine_;
                inWord_ = false;
                word_.clear();
                ++at_;
                return;
            }
            fail(line_, "'(' that opens no NAME=( array");
        case ')':
            if (arrayLine_ == 0)
                fail(line_, "')' closes no array");
            finishWord();
            words_.push_back({ShellWord::Kind::ArrayClose, {}, line_});
            arrayLine_ = 0;
            ++at_;
            return;
        default:
            unquotedCharacter();
        }
    }

    std::string_view text_;
    const std::string& fileName_;
    std::size_t at_ = 0;
    int line_ = 1;
    bool inWord_ = false;
    int wordLine_ = 0;
    std::string word_;
    bool dropNextWord_ = false;
    int arrayLine_ = 0;  // where the open array started; 0: none open
    std::string arrayName_;
    std::vector<ShellWord> words_;
};

}  // namespace

std::vector<ShellWord> shellWords(std::string_view text, const std::string& fileName)
{
    return ShellSplitter(text, fileName).split();
}

}  // namespace tapestry
