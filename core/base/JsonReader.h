#pragma once

#include "base/JsonValue.h"

#include <string>
#include <string_view>

namespace tapestry {

// Parses one JSON document (RFC 8259) into a JsonValue. Qt-free and small on purpose:
// config files such as cluster presets need exact error positions and nothing more.
// Guarantees: the whole text is one value (trailing garbage is an error); object keys are
// unique; strings are returned as UTF-8 (\u escapes, surrogate pairs included, decoded);
// nesting deeper than 256 levels is rejected instead of exhausting the stack.
// Throws Error(InvalidJson, fileName, "line L, column C: ...") on any syntax error.
[[nodiscard]] JsonValue parseJson(std::string_view text, const std::string& fileName);

}  // namespace tapestry
