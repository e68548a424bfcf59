#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tapestry::cli {

// "8.03 B", "124.4 M", "512"
[[nodiscard]] std::string humanCount(std::uint64_t count);
// "16.06 GB" (decimal units, as model cards quote them)
[[nodiscard]] std::string humanBytes(std::uint64_t bytes);
// A positive whole number from an option's text; InvalidArgument naming `option` otherwise.
[[nodiscard]] std::size_t parseCount(std::string_view text, std::string_view option);

}  // namespace tapestry::cli
