#pragma once

#include "solver/ShardingProblem.h"

#include <filesystem>
#include <string>

namespace tapestry {

// The problem in the IOPDDL contest's JSON format, as readIopddlFile reads it back:
// {"problem": {"name", "nodes": {"intervals", "costs", "usages"}, "edges": {"nodes",
// "costs"}, "usage_limit" (only when there is a limit)}}.
[[nodiscard]] std::string iopddlText(const ShardingProblem& problem);

// Writes iopddlText(problem) to `file` (atomically). Throws Error(WriteFailed, file)
// when it cannot be written.
void writeIopddlFile(const ShardingProblem& problem, const std::filesystem::path& file);

}  // namespace tapestry
