#pragma once

#include "history/HistoryRecords.h"

#include <memory>
#include <vector>

namespace tapestry {

struct FoldedModel;
struct SearchOutcome;
struct SearchSetup;

// What a search session leaves in the history, the same from the CLI and the GUI.

// The run's settings: command "search", the mode, the workload, the pins as
// "TARGET=split,split" and the memory limit.
[[nodiscard]] RunSettings searchRunSettings(const SearchSetup& setup);
// The records of outcome.recordedCandidates(), in that order (planDocument of each).
[[nodiscard]] std::vector<PlanRecord> searchRecordsOf(const FoldedModel& model,
                                                      const SearchSetup& setup, const SearchOutcome& outcome);

}  // namespace tapestry
