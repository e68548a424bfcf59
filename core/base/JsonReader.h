#pragma once

#include "base/JsonValue.h"

#include <functional>
#include <string>
#include <string_view>

namespace tapestry {

// Parses one JSON document (RFC 8259) into a JsonValue with nlohmann-json's SAX parser.
// Guarantees: the whole text is one value (trailing garbage is an error); object keys are
// unique (checked in time linear in the members); strings are valid UTF-8 (\u escapes,
// surrogate pairs included, decoded; ill-formed bytes are an error); integers that fit
// in 64 bits are exact; numbers beyond a double's range are an error; nesting deeper
// than 256 levels is rejected instead of exhausting the stack.
// Throws Error(InvalidJson, fileName, "line L, column C: ...") on any syntax error.
[[nodiscard]] JsonValue parseJson(std::string_view text, const std::string& fileName);

// parseJson for a document whose top-level object holds a long array at `member`: each
// element is handed to `element` as soon as it is read, with its index, and not kept
// (the returned document has that array empty), so memory stays that of one element.
[[nodiscard]] JsonValue parseJsonStreaming(std::string_view text, const std::string& fileName, std::string_view member,
                                           const std::function<void(JsonValue, std::size_t)>& element);

}  // namespace tapestry
