#include "search/SearchTerms.h"

#include "base/Error.h"
#include "cost/PricingClasses.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace tapestry {

namespace {

// A tensor pattern after grouping: producer group, consumer groups, and how many
// tensors of the unfolded graph it stands for.
struct Pattern {
    const CostModel::CrossingTensor* tensor = nullptr;
    std::size_t producer = 0;
    std::vector<std::size_t> consumers;
    double weight = 0;
};

// The crossing tensors merged by pattern: those that connect the same groups the same
// way (producer group, consumer groups, bytes, whether a gradient comes back), each
// pattern standing for its last tensor, ordered by those keys. A folded model's tensors
// repeat one block's few patterns: each tensor is matched among its producer group's
// patterns, without allocating.
std::vector<Pattern> mergedPatterns(const std::vector<CostModel::CrossingTensor>& tensors,
                                    const std::vector<std::size_t>& groupOf, std::size_t groupCount)
{
    std::vector<Pattern> patterns;
    std::vector<std::vector<std::size_t>> byProducer(groupCount);  // indices into patterns
    std::vector<std::size_t> consumers;  // the tensor in hand's consumer groups, ascending
    for (const CostModel::CrossingTensor& tensor : tensors) {
        consumers.clear();
        for (const auto& consumer : tensor.consumers)
            consumers.push_back(groupOf[consumer.first.index()]);
        std::sort(consumers.begin(), consumers.end());
        consumers.erase(std::unique(consumers.begin(), consumers.end()), consumers.end());
        const std::size_t producer = groupOf[tensor.producer.index()];
        std::vector<std::size_t>& known = byProducer[producer];
        auto same = std::find_if(known.begin(), known.end(), [&](std::size_t p) {
            return patterns[p].consumers == consumers && patterns[p].tensor->bytes == tensor.bytes &&
                   patterns[p].tensor->carriesGradient == tensor.carriesGradient;
        });
        if (same == known.end()) {
            same = known.insert(known.end(), patterns.size());
            patterns.push_back({&tensor, producer, consumers, 0});
        }
        Pattern& pattern = patterns[*same];
        pattern.tensor = &tensor;
        pattern.weight += 1;
    }
    const auto key = [](const Pattern& p) {
        return std::tie(p.producer, p.consumers, p.tensor->bytes, p.tensor->carriesGradient);
    };
    std::sort(patterns.begin(), patterns.end(), [&](const Pattern& a, const Pattern& b) { return key(a) < key(b); });
    return patterns;
}

AxisLayout gradientTarget(AxisLayout produced)
{
    return produced == AxisLayout::Partial ? AxisLayout::Replicated : produced;
}

class TermPricer {
public:
    TermPricer(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
               ConversionTerms& terms)
        : costs_(costs), coarse_(coarse), groups_(groups), terms_(terms)
    {
    }

    // One consumer group: the exact cost table between the two groups' candidates (on
    // the diagonal, into the node's own cost, when producer and consumer are one group).
    void addPair(const Pattern& pattern)
    {
        const std::size_t producer = pattern.producer;
        const std::size_t consumer = pattern.consumers.front();
        const auto& producerCandidates = groups_[producer].candidates;
        const auto& consumerCandidates = groups_[consumer].candidates;
        const CoarseNodeKind consumerKind = kindOf(consumer);
        auto pairSeconds = [&](const NodeStrategy& p, const NodeStrategy& c) {
            double seconds = 0;
            for (std::size_t a = 0; a < costs_.mesh().axisCount(); ++a) {
                const AxisLayout produced = outputLayout(p.axes[a]);
                seconds += costs_.conversionSeconds(*pattern.tensor, a, p, produced,
                                                    requiredInputLayout(consumerKind, c.axes[a]), true);
                if (pattern.tensor->carriesGradient)
                    seconds += costs_.conversionSeconds(*pattern.tensor, a, p,
                                                        inputGradientLayout(consumerKind, c.axes[a]),
                                                        gradientTarget(produced), false);
            }
            return seconds * pattern.weight;
        };
        if (producer == consumer) {
            std::vector<double> within;
            for (const NodeStrategy& candidate : producerCandidates)
                within.push_back(pairSeconds(candidate, candidate));
            terms_.withinGroups.emplace_back(producer, std::move(within));
            return;
        }
        SearchTerms::PairTerm term{producer, consumer,
                                   std::vector<std::vector<double>>(producerCandidates.size(),
                                                                    std::vector<double>(consumerCandidates.size()))};
        bool anyCost = false;
        for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
            for (std::size_t c = 0; c < consumerCandidates.size(); ++c) {
                term.seconds[p][c] = pairSeconds(producerCandidates[p], consumerCandidates[c]);
                anyCost = anyCost || term.seconds[p][c] > 0;
            }
        }
        if (anyCost)
            terms_.pairs.push_back(std::move(term));
    }

    // Several consumer groups: one shared conversion per axis, direction and layout.
    void addShared(const Pattern& pattern)
    {
        const auto& producerCandidates = groups_[pattern.producer].candidates;
        for (std::size_t a = 0; a < costs_.mesh().axisCount(); ++a) {
            if (costs_.mesh().axis(a).size <= 1)
                continue;
            for (const bool backward : {false, true}) {
                if (backward && !pattern.tensor->carriesGradient)
                    continue;
                auto layoutOf = [&](std::size_t g, const NodeStrategy& c) {
                    return backward ? inputGradientLayout(kindOf(g), c.axes[a])
                                    : requiredInputLayout(kindOf(g), c.axes[a]);
                };
                std::set<AxisLayout> layouts;
                for (const std::size_t g : pattern.consumers) {
                    for (const NodeStrategy& c : groups_[g].candidates)
                        layouts.insert(layoutOf(g, c));
                }
                for (const AxisLayout layout : layouts) {
                    SearchTerms::SharedConversion conversion;
                    conversion.producer = pattern.producer;
                    for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
                        const AxisLayout produced = outputLayout(producerCandidates[p].axes[a]);
                        const AxisLayout from = backward ? layout : produced;
                        const AxisLayout to = backward ? gradientTarget(produced) : layout;
                        const double seconds =
                            costs_.conversionSeconds(*pattern.tensor, a, producerCandidates[p], from, to, !backward);
                        if (seconds > 0)
                            conversion.price.emplace_back(p, seconds * pattern.weight);
                    }
                    if (conversion.price.empty())
                        continue;
                    for (const std::size_t g : pattern.consumers) {
                        std::vector<std::size_t> needing;
                        for (std::size_t c = 0; c < groups_[g].candidates.size(); ++c) {
                            if (layoutOf(g, groups_[g].candidates[c]) == layout)
                                needing.push_back(c);
                        }
                        if (!needing.empty())
                            conversion.needing.emplace_back(g, std::move(needing));
                    }
                    terms_.sharedConversions.push_back(std::move(conversion));
                }
            }
        }
    }

private:
    CoarseNodeKind kindOf(std::size_t group) const { return coarse_.node(groups_[group].members.front()).kind; }

    const CostModel& costs_;
    const CoarseGraph& coarse_;
    const std::vector<StrategyGroup>& groups_;
    ConversionTerms& terms_;
};

// Per coarse node its group; throws naming a node in none.
std::vector<std::size_t> groupOfNodes(const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups)
{
    std::vector<std::size_t> groupOf(coarse.nodes.size(), SIZE_MAX);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (const CoarseNodeId member : groups[g].members)
            groupOf[member.index()] = g;
    }
    for (const CoarseNode& node : coarse.nodes) {
        if (groupOf[node.id.index()] == SIZE_MAX)
            throw Error(ErrorCode::InvalidArgument, {}, "search: coarse node '" + node.name + "' is in no group");
    }
    return groupOf;
}

// The node terms alone.
SearchTerms priceNodeTerms(const CostModel& costs, const std::vector<StrategyGroup>& groups)
{
    SearchTerms terms;
    terms.nodeSeconds.resize(groups.size());
    terms.memoryBytes.resize(groups.size());
    // The members of one pricing class need the same memory under a strategy: each
    // class's is priced once per candidate (its first member), and summed member by member.
    const std::vector<std::size_t>& classOf = costs.pricingClasses().classOf;
    std::vector<std::size_t> classes;    // a group's classes, in the order of their first members
    std::vector<CoarseNodeId> priced;    // their first members
    std::vector<std::size_t> slotOf;     // per member: its class's place in `classes`
    std::vector<double> classBytes;      // per class: its memory under the candidate in hand
    for (std::size_t g = 0; g < groups.size(); ++g) {
        classes.clear();
        priced.clear();
        slotOf.clear();
        for (const CoarseNodeId member : groups[g].members) {
            const std::size_t k = classOf[member.index()];
            const auto slot = static_cast<std::size_t>(std::find(classes.begin(), classes.end(), k) - classes.begin());
            if (slot == classes.size()) {
                classes.push_back(k);
                priced.push_back(member);
            }
            slotOf.push_back(slot);
        }
        const double weight = static_cast<double>(groups[g].members.size());
        for (const NodeStrategy& candidate : groups[g].candidates) {
            // Every member has the same facts up to its own weights; price the first.
            const CostModel::StrategyTerms first = costs.strategyTerms(groups[g].members.front(), candidate);
            classBytes.clear();
            for (const CoarseNodeId member : priced)
                classBytes.push_back(costs.strategyMemoryBytes(member, candidate));
            double bytes = 0;
            for (const std::size_t slot : slotOf)
                bytes += classBytes[slot];
            terms.nodeSeconds[g].push_back(weight * (first.computeSeconds + first.communicationSeconds));
            terms.memoryBytes[g].push_back(bytes);
        }
    }
    return terms;
}

}  // namespace

ConversionTerms priceConversionTerms(const CostModel& costs, const CoarseGraph& coarse,
                                     const std::vector<StrategyGroup>& groups)
{
    ConversionTerms terms;
    TermPricer pricer(costs, coarse, groups, terms);
    for (const Pattern& pattern : mergedPatterns(costs.crossingTensors(), groupOfNodes(coarse, groups), groups.size())) {
        if (pattern.consumers.size() == 1)
            pricer.addPair(pattern);
        else
            pricer.addShared(pattern);
    }
    return terms;
}

SearchTerms priceSearchTerms(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
                             const ConversionTerms& conversions)
{
    (void)groupOfNodes(coarse, groups);  // every node in a group
    SearchTerms terms = priceNodeTerms(costs, groups);
    for (const auto& [group, seconds] : conversions.withinGroups) {
        for (std::size_t c = 0; c < seconds.size(); ++c)
            terms.nodeSeconds[group][c] += seconds[c];
    }
    terms.pairs = conversions.pairs;
    terms.sharedConversions = conversions.sharedConversions;
    return terms;
}

const ConversionTerms& ConversionTermsCache::of(const CostModel& costs, const CoarseGraph& coarse,
                                                const std::vector<StrategyGroup>& groups)
{
    const CostModel::ConversionKey key = costs.conversionKey();
    for (const std::unique_ptr<Entry>& entry : entries_) {
        if (entry->key == key && entry->groups == groups)
            return entry->terms;
    }
    entries_.push_back(std::make_unique<Entry>(Entry{key, groups, priceConversionTerms(costs, coarse, groups)}));
    return entries_.back()->terms;
}

SearchTerms priceSearchTerms(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
                             bool withConversions)
{
    if (withConversions)
        return priceSearchTerms(costs, coarse, groups, priceConversionTerms(costs, coarse, groups));
    (void)groupOfNodes(coarse, groups);  // every node in a group
    return priceNodeTerms(costs, groups);
}

}  // namespace tapestry
