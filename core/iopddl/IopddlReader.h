#pragma once

#include "solver/ShardingProblem.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace tapestry {

// Reads a problem in the IOPDDL contest's JSON format (ASPLOS/EuroSys 2025), plain or
// gzip-compressed: {"problem": {"name", "nodes": {"intervals", "costs", "usages"},
// "edges": {"nodes", "costs"}, "usage_limit"?}}, members in any order, others skipped.
// Numbers must be whole and fit in 64 bits; digits alone are read exactly (a cost of
// 2^53 + 1 stays itself), 1e18 or -9.2e18 through a double. One pass over the text into
// the problem, no document tree. Throws Error(InvalidShardingProblem, file, ...) naming
// the offending entry (e.g. "nodes.costs[3][1]") for wrong lengths, bad node indices,
// reversed or negative intervals, negative costs or usages and cost matrices of the
// wrong size; InvalidJson with the line and column for syntax errors.
[[nodiscard]] ShardingProblem readIopddlFile(const std::filesystem::path& file);
[[nodiscard]] ShardingProblem parseIopddl(std::string_view text, const std::string& fileName);

}  // namespace tapestry
