#pragma once

#include "cost/CostModel.h"
#include "search/StrategyGroup.h"

#include <functional>
#include <optional>
#include <vector>

namespace tapestry {

enum class IlpStatus : std::uint8_t {
    Optimal,     // proven optimal
    Feasible,    // a solution, optimality not proven (time limit or cancelled)
    Infeasible,  // proven: no assignment fits the memory limit
    NoSolution,  // stopped before any solution was found
};

[[nodiscard]] const char* ilpStatusName(IlpStatus status);

struct IlpResult {
    IlpStatus status = IlpStatus::NoSolution;
    std::vector<std::size_t> choice;  // candidate index per group
    double objective = 0;             // seconds (or bytes when minimizing memory)
    double bound = 0;                 // best proven lower bound
    double estimatedMemoryBytes = 0;  // the memory row's value for the choice
    std::size_t columns = 0;
    std::size_t rows = 0;
    int branchNodes = 0;
    bool cancelled = false;
};

struct IlpOptions {
    std::optional<double> memoryLimitBytes;
    bool minimizeMemory = false;  // objective: per-device memory instead of step time
    double timeLimitSeconds = 60;
    std::function<bool()> cancelled;                                              // polled by the solver
    std::function<void(double objective, const std::vector<std::size_t>&)> onIncumbent;  // each improvement
};

// The search problem (SearchTerms) as one integer program, solved with COIN-OR CBC: a
// binary per (group, candidate); per pair term a column per candidate pair under
// marginal constraints; per shared conversion a variable that is 1 when some consumer
// needs its layout (so each distinct layout is converted once, forward and backward, as
// CostModel::evaluate charges it) and a cost column per priced producer candidate. The
// memory row is the sum of SearchTerms::memoryBytes.
[[nodiscard]] IlpResult solveShardingIlp(const CostModel& costs, const CoarseGraph& coarse,
                                         const std::vector<StrategyGroup>& groups, const IlpOptions& options);

}  // namespace tapestry
