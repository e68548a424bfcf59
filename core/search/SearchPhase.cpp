#include "search/SearchPhase.h"

namespace tapestry {

const char* searchPhaseName(SearchPhase phase)
{
    switch (phase) {
    case SearchPhase::ExpertPlans: return "expert plans";
    case SearchPhase::Grouping: return "grouping";
    case SearchPhase::Searching: return "searching";
    case SearchPhase::SmallestPeak: return "smallest peak";
    case SearchPhase::Alternatives: return "alternatives";
    case SearchPhase::Baseline: return "baseline";
    case SearchPhase::Comparison: return "without a technique";
    case SearchPhase::Done: return "done";
    }
    return "?";
}

}  // namespace tapestry
