#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// A word of a shell script as bash splits it, with what the reader of a launch script
// needs to place it.
struct ShellWord {
    enum class Kind : unsigned char {
        Word,          // an argument or a command's name, quotes and escapes removed
        ArrayOpen,     // NAME=( : the words up to the matching ArrayClose are an array's
        ArrayClose,    // )
        CommandEnd,    // an unescaped line end, ';', '&&', '||', '|' or '&'
    };
    Kind kind = Kind::Word;
    std::string text;  // the word; for ArrayOpen the array's name
    int line = 0;      // where the word starts, from 1
};

// Splits `text` as bash does: '#' comments at a word's start, backslash escapes and
// line continuations, single quotes (literal), double quotes (\" \\ \$ \` and a
// continuation escaped), redirections ("> log", "2>&1") dropped with their targets,
// NAME=( ... ) arrays. Throws Error(InvalidPlan, fileName, "line L: ...") for what a
// shell would not run or would run as something else: an unterminated quote or array, a
// ')' with no array open, bytes that are not UTF-8 text (control characters, binary),
// and, outside quotes, a look-alike dash (en or em dash, minus sign, ...) starting a word
// or a Unicode space (no-break space, ...) inside one, which bash keeps as part of the
// word where the writer meant "--" or a space.
[[nodiscard]] std::vector<ShellWord> shellWords(std::string_view text, const std::string& fileName);

}  // namespace tapestry
