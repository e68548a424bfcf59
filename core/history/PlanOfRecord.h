#pragma once

#include "history/HistoryRecords.h"
#include "plan/PlanFile.h"

#include <filesystem>

namespace tapestry {

struct FoldedModel;

// The plan a history record holds, read for `model` (the CLI's diff and re-cost, the
// GUI's open, compare and export of a record). Errors name "HISTORY plan ID". Throws
// Error(InvalidPlan) when the plan's nodes are not the model's.
[[nodiscard]] PlanDocument planOfRecord(const PlanRecord& record, const std::filesystem::path& historyFile,
                                        const FoldedModel& model);

}  // namespace tapestry
