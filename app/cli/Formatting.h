#pragma once

#include <cstdint>
#include <string>

namespace tapestry::cli {

// "8.03 B", "124.4 M", "512"
[[nodiscard]] std::string humanCount(std::uint64_t count);
// "16.06 GB" (decimal units, as model cards quote them)
[[nodiscard]] std::string humanBytes(std::uint64_t bytes);

}  // namespace tapestry::cli
