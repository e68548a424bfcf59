#pragma once

#include "plan/Plan.h"

#include <vector>

namespace tapestry {

// Coarse nodes that must take the same strategy (the instances of one family position,
// or a single node), and the strategies they may take.
struct StrategyGroup {
    std::vector<CoarseNodeId> members;
    std::vector<NodeStrategy> candidates;  // one if pinned

    bool operator==(const StrategyGroup&) const = default;
};

}  // namespace tapestry
