#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tapestry {

// "line 3, column 17": where byte `offset` of `text` lies, both counted from 1, as
// readers of text formats name the place of a syntax error. Lines end in LF, CRLF or CR.
[[nodiscard]] std::string lineAndColumn(std::string_view text, std::size_t offset);

}  // namespace tapestry
