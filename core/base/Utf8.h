#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace tapestry {

// The offset of the first byte of `text` that is not part of well-formed UTF-8
// (overlong forms, surrogates and code points past U+10FFFF included); nullopt when the
// whole text is valid. Names read from files go into JSON plan files, which must be
// UTF-8 to be read back.
[[nodiscard]] std::optional<std::size_t> firstInvalidUtf8Byte(std::string_view text);

}  // namespace tapestry
