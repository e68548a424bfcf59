#pragma once

#include "solver/ShardingProblem.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace tapestry {

// Reads a problem in the IOPDDL contest's JSON format (ASPLOS/EuroSys 2025), plain or
// gzip-compressed: {"problem": {"name", "nodes": {"intervals", "costs", "usages"},
// "edges": {"nodes", "costs"}, "usage_limit"?}}. Numbers must be whole and fit in 64
// bits (the reader keeps doubles, so values above 2^53 are rounded to the nearest
// double). Throws Error(InvalidShardingProblem, file, ...) naming the offending entry
// for wrong lengths, bad node indices, reversed or negative intervals and cost
// matrices of the wrong size; InvalidJson for syntax errors.
[[nodiscard]] ShardingProblem readIopddlFile(const std::filesystem::path& file);
[[nodiscard]] ShardingProblem parseIopddl(std::string_view text, const std::string& fileName);

}  // namespace tapestry
