#pragma once

#include "cost/CostModel.h"
#include "plan/ParallelDegrees.h"
#include "search/ShardingIlp.h"
#include "search/SearchPhase.h"
#include "search/ShardingProblemEncoding.h"
#include "target/TrainingStack.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

class ConversionTermsCache;

enum class SearchMode : std::uint8_t {
    Tap,         // fold: one decision per family position, searched once, replicated
    WholeGraph,  // the Alpa-style baseline: one decision per coarse node, by the general solver
};

// A user's fixed choice. `target` is a coarse node's name ("model/layers.3/mlp/up_proj/MatMul":
// that node only) or a family position ("model/layers.#/mlp/up_proj/MatMul": every instance).
struct Pin {
    std::string target;
    NodeStrategy strategy;
};

// Parses "TARGET=split[,split...]" (one split per mesh axis). Throws InvalidArgument.
[[nodiscard]] Pin parsePin(std::string_view text);

struct SearchOptions {
    SearchMode mode = SearchMode::Tap;
    std::vector<Pin> pins;
    std::optional<double> memoryLimitBytes;  // per device; the GPU's HBM when unset
    double timeLimitSeconds = 60;            // for each solve
    std::size_t alternatives = 3;            // extra Pareto points below the best plan's memory
    // Techniques no unpinned node may use (to price the best plan without them).
    std::vector<ParallelTechnique> withheld;
    // The most GPUs a tensor-, context- or expert-parallel group may span (groupWidth;
    // 0: any), to price the best plan with its groups kept inside one node.
    int widestGroup = 0;
    // Only layouts with a group wider than this many GPUs (0: any), to price the best plan
    // whose groups reach beyond one node. The stack searches honour it (a layout has one
    // widest group); the per-node search does not.
    int groupsWiderThan = 0;
    // The stack the plans are for: a runnable stack restricts the search to what it
    // runs as is (searchStackMesh); Any searches every strategy per node (TAP).
    TrainingStack stack = TrainingStack::Any;
    // Each solve's plan priced by its totals only (CostModel::evaluateTotals: the plan
    // lays every family's instances out alike unless pinned one by one, so its price does
    // not grow with the model's depth), its evaluation's breakdowns left empty: for a
    // caller that prices again what it keeps (SearchSession).
    bool totalsOnly = false;
    // The tensor terms earlier searches on this mesh priced (TAP mode), reused where the
    // cost model converts alike over the same groups (a search per ZeRO stage); none:
    // priced anew.
    std::shared_ptr<ConversionTermsCache> conversionTerms;
};

// The fastest plan alone, without Pareto alternatives.
[[nodiscard]] inline SearchOptions fastestPlanOnly()
{
    SearchOptions options;
    options.alternatives = 0;
    return options;
}

struct SearchCallbacks {
    std::function<void(SearchPhase phase, double fraction)> progress;
    // In WholeGraph mode also polled from a helper thread while the solver runs.
    std::function<bool()> cancelled;
    std::function<void(const Plan& plan, double stepSeconds)> bestSoFar;
};

struct SearchCandidate {
    Plan plan;
    PlanEvaluation evaluation;
};

struct SearchStatistics {
    std::size_t coarseNodes = 0;
    std::size_t families = 0;
    std::size_t decisionGroups = 0;   // variables the search decides
    std::size_t anchorGroups = 0;     // of which anchors
    std::size_t ilpColumns = 0;       // Tap mode's integer program
    std::size_t ilpRows = 0;
    int branchNodes = 0;              // states examined by branch and bound (Tap mode's integer program)
    std::size_t eliminationStates = 0;  // table states of Tap mode's exact elimination (TermElimination)
    std::size_t problemNodes = 0;     // WholeGraph mode's solver problem (ShardingProblemEncoding)
    std::size_t problemEdges = 0;
    std::size_t reducedNodes = 0;     // of which left after the solver's exact reductions
    std::size_t solves = 0;
    IlpStatus status = IlpStatus::NoSolution;
    double objectiveSeconds = 0;      // the best plan's step time as the program prices it
    double boundSeconds = 0;          // proven lower bound on that (0 when none is known)
    double groupingSeconds = 0;
    double solveSeconds = 0;
    double evaluateSeconds = 0;
    double totalSeconds = 0;
};

struct SearchResult {
    std::optional<SearchCandidate> best;
    std::vector<SearchCandidate> alternatives;  // Pareto points: less memory, more time
    bool fitsInMemory = false;
    double memoryLimitBytes = 0;
    std::string message;  // why nothing fits, or why the search stopped early
    bool cancelled = false;
    SearchStatistics statistics;
};

// Finds the fastest plan whose per-device memory fits (search.md). In Tap mode every
// family position is one decision shared by all instances, so the program is as small
// as the unique blocks; WholeGraph decides every coarse node on its own. When nothing
// fits, the result holds the plan with the smallest peak and says so. Pins are
// honoured or reported (unknown target, a split the node's kind cannot take, or no
// plan that fits under them). Tap mode eliminates the groups exactly (TermElimination,
// one elimination answers every memory limit), or solves the integer program
// (ShardingIlp) where the elimination's tables would be too large;
// WholeGraph mode runs the general solver (solveShardingProblem) on the encoded problem,
// and reports Optimal only where the solver proved it. Progress, cancellation and the
// best plan so far go through `callbacks` (in WholeGraph mode the solver's incumbents
// carry no plan: the best plan so far is published when a solve ends); a cancelled
// search returns the best plan found until then.
[[nodiscard]] SearchResult searchPlan(const CostModel& costs, const CoarseGraph& coarse, const FamilyTable& families,
                                      const SearchOptions& options, const SearchCallbacks& callbacks = {});

// The problem of searchPlan's first solve (decisions by mode and pins, the memory limit)
// as the general solver's node/edge/memory problem, e.g. to write it out in the IOPDDL
// format. Throws like searchPlan for bad pins.
[[nodiscard]] ShardingProblemEncoding encodeSearchProblem(const CostModel& costs, const CoarseGraph& coarse,
                                                          const FamilyTable& families, const SearchOptions& options);

}  // namespace tapestry
