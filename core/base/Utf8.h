#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

// The offset of the first byte of `text` that is not part of well-formed UTF-8
// (overlong forms, surrogates and code points past U+10FFFF included); nullopt when the
// whole text is valid. Names read from files go into JSON plan files, which must be
// UTF-8 to be read back.
[[nodiscard]] std::optional<std::size_t> firstInvalidUtf8Byte(std::string_view text);

// Appends code point `c` to `text` as UTF-8; false (nothing appended) for a surrogate or a
// code point past U+10FFFF, which UTF-8 cannot carry.
[[nodiscard]] bool appendUtf8(std::string& text, char32_t c);

}  // namespace tapestry
