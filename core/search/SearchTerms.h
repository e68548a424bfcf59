#pragma once

#include "cost/CostModel.h"
#include "search/StrategyGroup.h"

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace tapestry {

// The node/edge terms of the search problem (cost-model.md) over strategy groups,
// priced once so that the integer program (ShardingIlp) and the general solver's
// encoding (ShardingProblemEncoding) pose the same problem. The step time of a choice
// (one candidate per group) is
//   sum of nodeSeconds[g][choice[g]]
// + sum over pair terms of seconds[choice[producer]][choice[consumer]]
// + sum over shared conversions that some consumer needs (a consumer group's chosen
//   candidate is in its `needing` list) of the producer's price for its choice,
// and its memory estimate is the sum of memoryBytes[g][choice[g]].
struct SearchTerms {
    // A tensor pattern read by one other group: the exact cost table of the pair.
    struct PairTerm {
        std::size_t producer = 0;
        std::size_t consumer = 0;
        std::vector<std::vector<double>> seconds;  // [producer candidate][consumer candidate]
    };
    // A tensor pattern read by several groups, per mesh axis, direction and layout: each
    // distinct layout the consumers need (forward) or hand back (backward) is converted
    // once, whichever consumers need it.
    struct SharedConversion {
        std::size_t producer = 0;
        std::vector<std::pair<std::size_t, double>> price;  // (producer candidate, seconds > 0)
        // Per consumer group with a candidate that needs the layout: those candidates.
        std::vector<std::pair<std::size_t, std::vector<std::size_t>>> needing;
    };

    std::vector<std::vector<double>> nodeSeconds;  // [group][candidate]: compute, gradient sync, own tensors
    std::vector<std::vector<double>> memoryBytes;  // [group][candidate]: CostModel::strategyTerms' bound
    std::vector<PairTerm> pairs;
    std::vector<SharedConversion> sharedConversions;
};

// The terms of the tensors between nodes: the pairs, the shared conversions, and what
// tensors read within one group add to its node terms (per candidate, in the order
// added). They read only the cost model's conversions (CostModel::ConversionKey) and
// the groups: a search that tries several ZeRO stages prices them once.
struct ConversionTerms {
    std::vector<SearchTerms::PairTerm> pairs;
    std::vector<SearchTerms::SharedConversion> sharedConversions;
    std::vector<std::pair<std::size_t, std::vector<double>>> withinGroups;
};

// Prices the terms. Every coarse node must be in exactly one group; throws
// Error(InvalidArgument) naming a node that is in none. Tensors that connect the same
// groups the same way are merged with their multiplicity, which is what makes a folded
// model's problem as small as one block. Without `withConversions` only node terms are
// priced (for minimizing memory, where tensors cost nothing).
[[nodiscard]] SearchTerms priceSearchTerms(const CostModel& costs, const CoarseGraph& coarse,
                                           const std::vector<StrategyGroup>& groups, bool withConversions);
// The node terms priced, the tensor terms taken from `conversions` (priced over the same
// groups by a model of the same ConversionKey): equal to priceSearchTerms's.
[[nodiscard]] SearchTerms priceSearchTerms(const CostModel& costs, const CoarseGraph& coarse,
                                           const std::vector<StrategyGroup>& groups,
                                           const ConversionTerms& conversions);
[[nodiscard]] ConversionTerms priceConversionTerms(const CostModel& costs, const CoarseGraph& coarse,
                                                   const std::vector<StrategyGroup>& groups);

// The tensor terms of one mesh's searches, each kept with the conversions and groups it
// was priced for. Its keys hold the crossing tensors and copy the mesh and cluster, so it
// may outlive the models it priced. Its searches run one after another: not for several
// threads.
class ConversionTermsCache {
public:
    // Those of `costs` over `groups`, priced on first use.
    const ConversionTerms& of(const CostModel& costs, const CoarseGraph& coarse,
                              const std::vector<StrategyGroup>& groups);
    // How many sets of terms were priced.
    [[nodiscard]] std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        CostModel::ConversionKey key;
        std::vector<StrategyGroup> groups;
        ConversionTerms terms;
    };
    std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace tapestry
