#pragma once

#include "base/JsonValue.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

// Module-level literals of a Python configuration file, read as Python reads them
// (ast.literal_eval's subset that configuration files use), so that a hand-edited file
// means to Tapestry what it means to Python, or is refused with file, line and column.

// The offset of the value in `NAME = value` (or `NAME: annotation = value`) on a line of
// `text` that starts with NAME; nullopt when no line assigns it. Lines end in LF, CRLF or
// CR; a byte-order mark before the first is skipped. Throws Error(InvalidPlan, fileName, ...) when two lines assign NAME or a line
// changes it in place (`NAME[...] = `, `NAME.update(...)`, `NAME |= `): Python runs those,
// Tapestry reads the literal alone.
[[nodiscard]] std::optional<std::size_t> findPythonAssignment(std::string_view text, std::string_view name,
                                                              const std::string& fileName);

// The literal at `offset` of `text` and nothing else to the end of its statement but a
// comment: dictionaries with string keys (a key given twice is an error), lists and tuples
// (as arrays), strings ('...', "...", triple-quoted, u and r prefixes, Python's escapes,
// adjacent strings joined), integers (a sign, underscores between digits, 0x/0o/0b;
// within int64) as integers, floats as doubles, True, False and None. Throws
// Error(InvalidPlan, fileName, "line L, column C: ...") for anything else: a name, an
// expression, an unclosed bracket or string, nesting deeper than 64.
[[nodiscard]] JsonValue readPythonLiteral(std::string_view text, std::size_t offset, const std::string& fileName);

}  // namespace tapestry
