#pragma once

#include <cstdint>

namespace tapestry {

// The steps of a search session, in order, as progress reports name them.
enum class SearchPhase : std::uint8_t {
    ExpertPlans,   // pricing the dp, megatron and megatron-sp references of a mesh
    Grouping,      // building the decisions (one per family position in TAP mode)
    Searching,     // the fastest plan under the memory limit
    SmallestPeak,  // nothing fits: the plan with the smallest peak instead
    Alternatives,  // Pareto points that use less memory
    Baseline,      // the whole-graph search the TAP result is compared with
    Comparison,    // the best plan's mesh without a technique it uses (why it uses it)
    Done,
};

// "expert plans", "grouping", ... (the CLI's progress lines).
[[nodiscard]] const char* searchPhaseName(SearchPhase phase);

}  // namespace tapestry
