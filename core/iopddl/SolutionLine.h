#pragma once

#include "solver/ShardingProblem.h"

#include <string>
#include <string_view>

namespace tapestry {

// A solution as the IOPDDL contest binary prints it: `[0, 0, 2, 1, 0]`.
[[nodiscard]] std::string solutionLine(const Assignment& assignment);

// The solution on the last non-empty line of `text` (lines before it, a cost summary or a
// log, are ignored). Throws Error naming `fileName`: InvalidJson when that line is not
// JSON, InvalidArgument when it is not a list of non-negative whole numbers.
[[nodiscard]] Assignment parseSolutionText(std::string_view text, const std::string& fileName);

}  // namespace tapestry
