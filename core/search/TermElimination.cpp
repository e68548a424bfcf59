#include "search/TermElimination.h"

#include "base/Error.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

namespace tapestry {

namespace {

using Point = TermElimination::Point;
using Message = TermElimination::Message;

// A time term over a few groups, evaluated on the current candidate of each.
struct TimeFactor {
    std::vector<std::size_t> scope;  // ascending
    // A pair term: seconds[producer candidate * consumerCount + consumer candidate].
    std::size_t producer = 0;
    std::size_t consumer = 0;
    std::size_t consumerCount = 0;
    std::vector<double> pairSeconds;
    // A shared conversion: its price per producer candidate (0: free), paid when some
    // consumer group's candidate needs it.
    std::vector<double> price;
    std::vector<std::pair<std::size_t, std::vector<char>>> needs;

    [[nodiscard]] double seconds(const std::vector<std::size_t>& value) const
    {
        if (!pairSeconds.empty())
            return pairSeconds[value[producer] * consumerCount + value[consumer]];
        const double paid = price[value[producer]];
        if (paid == 0)
            return 0;
        for (const auto& [group, needing] : needs) {
            if (needing[value[group]] != 0)
                return paid;
        }
        return 0;
    }
};

// The terms as factors: pair terms between the same groups summed, shared conversions
// with the same producer and the same needing candidates summed (one per mesh axis,
// direction and layout often share them).
std::vector<TimeFactor> timeFactors(const SearchTerms& terms)
{
    std::map<std::pair<std::size_t, std::size_t>, TimeFactor> pairs;
    for (const SearchTerms::PairTerm& term : terms.pairs) {
        TimeFactor& factor = pairs[{term.producer, term.consumer}];
        const std::size_t consumers = term.seconds.front().size();
        if (factor.pairSeconds.empty()) {
            factor.producer = term.producer;
            factor.consumer = term.consumer;
            factor.consumerCount = consumers;
            factor.pairSeconds.assign(term.seconds.size() * consumers, 0.0);
            factor.scope = {std::min(term.producer, term.consumer), std::max(term.producer, term.consumer)};
        }
        for (std::size_t p = 0; p < term.seconds.size(); ++p) {
            for (std::size_t c = 0; c < consumers; ++c)
                factor.pairSeconds[p * consumers + c] += term.seconds[p][c];
        }
    }
    std::map<std::pair<std::size_t, std::vector<std::pair<std::size_t, std::vector<std::size_t>>>>, TimeFactor> shared;
    for (const SearchTerms::SharedConversion& conversion : terms.sharedConversions) {
        if (conversion.needing.empty())
            continue;
        TimeFactor& factor = shared[{conversion.producer, conversion.needing}];
        if (factor.price.empty()) {
            factor.producer = conversion.producer;
            factor.price.assign(terms.nodeSeconds[conversion.producer].size(), 0.0);
            std::set<std::size_t> scope{conversion.producer};
            for (const auto& [group, candidates] : conversion.needing) {
                std::vector<char> needing(terms.nodeSeconds[group].size(), 0);
                for (const std::size_t c : candidates)
                    needing[c] = 1;
                factor.needs.emplace_back(group, std::move(needing));
                scope.insert(group);
            }
            factor.scope.assign(scope.begin(), scope.end());
        }
        for (const auto& [p, seconds] : conversion.price)
            factor.price[p] += seconds;
    }
    std::vector<TimeFactor> factors;
    for (auto& [key, factor] : pairs)
        factors.push_back(std::move(factor));
    for (auto& [key, factor] : shared)
        factors.push_back(std::move(factor));
    return factors;
}

// What keepBest reuses from call to call: a frontier elimination calls it once per
// table entry, candidate and child table, mostly on a few points, so allocating its
// buffers each time cost more than the keeping.
struct KeepScratch {
    struct Ranked {
        double bytes;
        double seconds;
        std::uint32_t index;
    };
    std::vector<Ranked> ranked;
    std::vector<Point> points;
    std::vector<std::uint32_t> provenance;
};

// Keeps what the goal keeps of `points` (with `width` provenance entries each), in
// place: the Pareto points by memory ascending, or the single best one (Fastest: by
// seconds + price x bytes). Exact ties keep
// the earliest, so the result depends on the order of generation only.
void keepBest(EliminationGoal goal, double price, std::vector<Point>& points, std::vector<std::uint32_t>& provenance,
              std::size_t width, KeepScratch& scratch)
{
    if (points.size() <= 1)
        return;
    const auto provenanceOf = [&](std::size_t i) {
        return provenance.begin() + static_cast<std::ptrdiff_t>(i * width);
    };
    if (goal != EliminationGoal::Frontier) {
        const bool byTime = goal == EliminationGoal::Fastest;
        auto key = [&](std::size_t i) {
            return byTime ? std::pair{points[i].seconds + price * points[i].bytes, points[i].bytes}
                          : std::pair{points[i].bytes, points[i].seconds};
        };
        std::size_t best = 0;
        for (std::size_t i = 1; i < points.size(); ++i) {
            if (key(i) < key(best))
                best = i;
        }
        points.front() = points[best];
        points.resize(1);
        std::copy(provenanceOf(best), provenanceOf(best + 1), provenance.begin());
        provenance.resize(width);
        return;
    }
    // By memory, then seconds, then generation: the order a stable sort by the first two gives.
    std::vector<KeepScratch::Ranked>& ranked = scratch.ranked;
    ranked.clear();
    for (std::size_t i = 0; i < points.size(); ++i)
        ranked.push_back({points[i].bytes, points[i].seconds, static_cast<std::uint32_t>(i)});
    std::sort(ranked.begin(), ranked.end(), [](const KeepScratch::Ranked& a, const KeepScratch::Ranked& b) {
        if (a.bytes != b.bytes)
            return a.bytes < b.bytes;
        if (a.seconds != b.seconds)
            return a.seconds < b.seconds;
        return a.index < b.index;
    });
    scratch.points.clear();
    scratch.provenance.clear();
    double fastest = std::numeric_limits<double>::infinity();
    for (const KeepScratch::Ranked& each : ranked) {
        if (each.seconds < fastest) {
            scratch.points.push_back(points[each.index]);
            scratch.provenance.insert(scratch.provenance.end(), provenanceOf(each.index), provenanceOf(each.index + 1));
            fastest = each.seconds;
        }
    }
    std::swap(points, scratch.points);
    std::swap(provenance, scratch.provenance);
}

}  // namespace

// Runs one elimination; a friend of TermElimination, whose tables it fills.
class TermEliminator {
public:
    TermEliminator(const SearchTerms& terms, EliminationGoal goal, const EliminationBounds& bounds,
                   const EliminationLimits& limits, EliminationSeconds* shared, TermElimination& result)
        : terms_(terms), shared_(shared), goal_(goal),
          cap_(goal == EliminationGoal::Frontier ? bounds.memoryCapBytes : std::numeric_limits<double>::infinity()),
          bound_(goal == EliminationGoal::Frontier ? bounds.secondsBound : std::numeric_limits<double>::infinity()),
          price_(goal == EliminationGoal::Fastest ? bounds.secondsPerByte : 0.0),
          // Partial sums are pruned with a little room, so that rounding in the order of
          // addition never drops a choice that ends exactly at a bound.
          partCap_(cap_ * (1 + kRoom)), partBound_(bound_ * (1 + kRoom)),
          limits_(limits), result_(result), groups_(terms.nodeSeconds.size()), factors_(timeFactors(terms)),
          value_(groups_, 0)
    {
        leastBytes_.resize(groups_);
        leastSeconds_.resize(groups_);
        for (std::size_t g = 0; g < groups_; ++g) {
            leastBytes_[g] = *std::min_element(terms.memoryBytes[g].begin(), terms.memoryBytes[g].end());
            leastSeconds_[g] = *std::min_element(terms.nodeSeconds[g].begin(), terms.nodeSeconds[g].end());
        }
    }

    bool run()
    {
        result_.groups_ = groups_;
        if (!order())
            return false;
        // The seconds are read where an earlier elimination kept them all, else kept as
        // they are filled (dropped again if this one stops short).
        reading_ = shared_ && shared_->complete_;
        keeping_ = shared_ && !shared_->complete_ && !shared_->tooLarge_;
        if (keeping_) {
            shared_->tables_.clear();
            shared_->cells_ = 0;
        }
        if (!eliminate()) {
            if (keeping_)
                shared_->tables_.clear();
            return false;
        }
        if (keeping_)
            shared_->complete_ = true;
        return true;
    }

private:
    bool eliminate()
    {
        // Each factor and table goes to the bucket of its first eliminated group.
        std::vector<std::vector<std::size_t>> bucketFactors(groups_);
        for (std::size_t f = 0; f < factors_.size(); ++f)
            bucketFactors[firstEliminated(factors_[f].scope)].push_back(f);
        std::vector<std::vector<std::size_t>> bucketMessages(groups_);
        // The memory the groups outside a table's part can add at least.
        const double leastTotal = std::accumulate(leastBytes_.begin(), leastBytes_.end(), 0.0);
        const double leastSecondsTotal = std::accumulate(leastSeconds_.begin(), leastSeconds_.end(), 0.0);
        std::vector<double> partLeast;
        std::vector<double> partLeastSeconds;
        for (const std::size_t variable : order_) {
            if (limits_.cancelled && limits_.cancelled())
                return false;
            Message message;
            message.variable = variable;
            message.children = bucketMessages[variable];
            double least = leastBytes_[variable];
            double leastSeconds = leastSeconds_[variable];
            std::set<std::size_t> scope;
            for (const std::size_t f : bucketFactors[variable])
                scope.insert(factors_[f].scope.begin(), factors_[f].scope.end());
            for (const std::size_t child : message.children) {
                scope.insert(result_.messages_[child].scope.begin(), result_.messages_[child].scope.end());
                least += partLeast[child];
                leastSeconds += partLeastSeconds[child];
            }
            scope.erase(variable);
            message.scope.assign(scope.begin(), scope.end());
            partLeast.push_back(least);
            partLeastSeconds.push_back(leastSeconds);
            outsideSeconds_ = leastSecondsTotal - leastSeconds;
            if (!fill(message, bucketFactors[variable], leastTotal - least))
                return false;
            const std::size_t id = result_.messages_.size();
            result_.messages_.push_back(std::move(message));
            const Message& stored = result_.messages_.back();
            if (stored.scope.empty())
                result_.rootMessages_.push_back(id);
            else
                bucketMessages[firstEliminated(stored.scope)].push_back(id);
        }
        combineRoots();
        return true;
    }

    // A greedy elimination order: each time the group whose table (its neighbours'
    // candidates multiplied) is smallest, ties to the lowest index; false when some table
    // would exceed the limit.
    bool order()
    {
        std::vector<std::set<std::size_t>> neighbours(groups_);
        for (const TimeFactor& factor : factors_) {
            for (const std::size_t a : factor.scope) {
                for (const std::size_t b : factor.scope) {
                    if (a != b)
                        neighbours[a].insert(b);
                }
            }
        }
        std::vector<bool> done(groups_, false);
        position_.assign(groups_, 0);
        for (std::size_t step = 0; step < groups_; ++step) {
            std::size_t chosen = groups_;
            double chosenSize = 0;
            for (std::size_t g = 0; g < groups_; ++g) {
                if (done[g])
                    continue;
                double size = 1;
                for (const std::size_t n : neighbours[g])
                    size *= static_cast<double>(terms_.nodeSeconds[n].size());
                if (chosen == groups_ || size < chosenSize) {
                    chosen = g;
                    chosenSize = size;
                }
            }
            if (chosenSize > static_cast<double>(limits_.maxStates))
                return false;
            done[chosen] = true;
            position_[chosen] = step;
            order_.push_back(chosen);
            for (const std::size_t a : neighbours[chosen]) {
                neighbours[a].erase(chosen);
                for (const std::size_t b : neighbours[chosen]) {
                    if (a != b)
                        neighbours[a].insert(b);
                }
            }
        }
        return true;
    }

    [[nodiscard]] std::size_t firstEliminated(const std::vector<std::size_t>& scope) const
    {
        return *std::min_element(scope.begin(), scope.end(),
                                 [&](std::size_t a, std::size_t b) { return position_[a] < position_[b]; });
    }

    [[nodiscard]] std::size_t entryOf(const Message& message) const
    {
        std::size_t entry = 0;
        for (std::size_t i = 0; i < message.scope.size(); ++i)
            entry += value_[message.scope[i]] * message.strides[i];
        return entry;
    }

    // The bucket's time factors as seen from the eliminated group, each as rows of seconds
    // per candidate of the group, so that a table entry adds one row per factor, picked by
    // the scope's current candidates: a pair's by its other group's candidate; a shared
    // conversion's by its producer's candidate (one row when the group is the producer)
    // and whether another consumer group's candidate needs it. A row holds the very
    // values the factor adds (its price or 0), so the sums are the terms' to the last bit.
    struct FactorView {
        std::vector<double> rows;  // [row][group candidate]
        std::size_t other = 0;     // pairs: the other group; conversions: the producer
        bool pair = false;
        bool producerIsGroup = false;                                      // conversions
        const std::vector<double>* price = nullptr;                        // conversions
        std::vector<std::pair<std::size_t, const std::vector<char>*>> otherNeeds;  // conversions
    };

    [[nodiscard]] std::vector<FactorView> views(std::size_t variable, const std::vector<std::size_t>& factors) const
    {
        const std::size_t count = terms_.nodeSeconds[variable].size();
        std::vector<FactorView> result;
        for (const std::size_t f : factors) {
            const TimeFactor& factor = factors_[f];
            FactorView view;
            if (!factor.pairSeconds.empty()) {
                const bool consumer = factor.consumer == variable;
                view.pair = true;
                view.other = consumer ? factor.producer : factor.consumer;
                const std::size_t others = terms_.nodeSeconds[view.other].size();
                view.rows.resize(others * count);
                for (std::size_t o = 0; o < others; ++o) {
                    for (std::size_t x = 0; x < count; ++x)
                        view.rows[o * count + x] = consumer ? factor.pairSeconds[o * factor.consumerCount + x]
                                                            : factor.pairSeconds[x * factor.consumerCount + o];
                }
            } else {
                std::vector<char> groupNeeds(count, 0);
                for (const auto& [group, needing] : factor.needs) {
                    if (group != variable) {
                        view.otherNeeds.emplace_back(group, &needing);
                        continue;
                    }
                    for (std::size_t x = 0; x < count; ++x)
                        groupNeeds[x] = static_cast<char>(groupNeeds[x] | needing[x]);
                }
                view.other = factor.producer;
                view.producerIsGroup = factor.producer == variable;
                view.price = &factor.price;
                // [producer candidate][needed elsewhere][group candidate]
                const std::size_t producers = view.producerIsGroup ? 1 : factor.price.size();
                view.rows.resize(producers * 2 * count);
                for (std::size_t p = 0; p < producers; ++p) {
                    for (std::size_t needed = 0; needed < 2; ++needed) {
                        double* row = view.rows.data() + (p * 2 + needed) * count;
                        for (std::size_t x = 0; x < count; ++x) {
                            const double paid = view.producerIsGroup ? factor.price[x] : factor.price[p];
                            row[x] = needed != 0 || groupNeeds[x] != 0 ? paid : 0.0;
                        }
                    }
                }
            }
            result.push_back(std::move(view));
        }
        return result;
    }

    // seconds[x]: the group's candidate x with the bucket's factors at the scope's current candidates.
    void bucketSeconds(std::size_t variable, const std::vector<FactorView>& views, std::vector<double>& seconds) const
    {
        const std::vector<double>& own = terms_.nodeSeconds[variable];
        const std::size_t count = own.size();
        seconds.assign(own.begin(), own.end());
        for (const FactorView& view : views) {
            std::size_t row = value_[view.other];
            if (!view.pair) {
                // A conversion another group's producer candidate pays nothing for adds nothing.
                if (!view.producerIsGroup && (*view.price)[row] == 0)
                    continue;
                bool needed = false;
                for (const auto& [group, needing] : view.otherNeeds) {
                    if ((*needing)[value_[group]] != 0) {
                        needed = true;
                        break;
                    }
                }
                row = (view.producerIsGroup ? 0 : row * 2) + (needed ? 1 : 0);
            }
            const double* add = view.rows.data() + row * count;
            for (std::size_t x = 0; x < count; ++x)
                seconds[x] += add[x];
        }
    }

    // The best candidate of one table entry without bounds (Fastest, LeastMemory), with its
    // children's points (without bounds every entry of a table holds one point: the
    // entry's is at its index): the least (seconds + price x bytes, bytes) by time, else
    // (bytes, seconds), the first of equals; `best` its point.
    template <bool ByTime>
    std::size_t bestCandidate(const double* seconds, const std::vector<double>& ownBytes,
                              const std::vector<const Point*>& childPoints, const std::vector<std::size_t>& childBase,
                              const std::vector<std::size_t>& childStride, Point& best) const
    {
        // Most groups have at most one child table: their loops without the others'.
        switch (childPoints.size()) {
        case 0:
            return bestCandidateOf<ByTime, 0>(seconds, ownBytes, childPoints, childBase, childStride, best);
        case 1:
            return bestCandidateOf<ByTime, 1>(seconds, ownBytes, childPoints, childBase, childStride, best);
        default:
            return bestCandidateOf<ByTime, 2>(seconds, ownBytes, childPoints, childBase, childStride, best);
        }
    }

    // bestCandidate with 0, 1 or (2) any number of child tables.
    template <bool ByTime, int Children>
    std::size_t bestCandidateOf(const double* seconds, const std::vector<double>& ownBytes,
                                const std::vector<const Point*>& childPoints, const std::vector<std::size_t>& childBase,
                                const std::vector<std::size_t>& childStride, Point& best) const
    {
        const std::size_t count = ownBytes.size();
        std::size_t chosen = 0;
        double chosenSeconds = 0;
        double chosenBytes = 0;
        double bestFirst = 0;
        double bestSecond = 0;
        const Point* child = Children == 1 ? childPoints[0] + childBase[0] : nullptr;
        const std::size_t stride = Children == 1 ? childStride[0] : 0;
        for (std::size_t x = 0; x < count; ++x) {
            double sumSeconds = seconds[x];
            double sumBytes = ownBytes[x];
            if constexpr (Children == 1) {
                sumSeconds += child[x * stride].seconds;
                sumBytes += child[x * stride].bytes;
            } else if constexpr (Children > 1) {
                for (std::size_t k = 0; k < childPoints.size(); ++k) {
                    const Point& taken = childPoints[k][childBase[k] + x * childStride[k]];
                    sumSeconds += taken.seconds;
                    sumBytes += taken.bytes;
                }
            }
            const double first = ByTime ? sumSeconds + price_ * sumBytes : sumBytes;
            const double second = ByTime ? sumBytes : sumSeconds;
            // (std::pair's order)
            if (x == 0 || first < bestFirst || (!(bestFirst < first) && second < bestSecond)) {
                chosen = x;
                chosenSeconds = sumSeconds;
                chosenBytes = sumBytes;
                bestFirst = first;
                bestSecond = second;
            }
        }
        best = Point{chosenSeconds, chosenBytes};
        return chosen;
    }

    // The table of one eliminated group: for every candidate combination of its scope,
    // the best of the group's candidates, each with the best of its children's tables.
    bool fill(Message& message, const std::vector<std::size_t>& factors, double outsideLeast)
    {
        const std::size_t variable = message.variable;
        const std::size_t count = terms_.nodeSeconds[variable].size();
        std::size_t entries = 1;
        message.strides.resize(message.scope.size());
        for (std::size_t i = message.scope.size(); i-- > 0;) {
            message.strides[i] = entries;
            entries *= terms_.nodeSeconds[message.scope[i]].size();
        }
        const std::size_t width = 1 + message.children.size();
        // The seconds of this step's table: read, or computed (and kept).
        const std::size_t step = result_.messages_.size();
        const double* readSeconds = nullptr;
        if (reading_) {
            // (The order and the tables' shapes depend on the terms alone.)
            const std::vector<double>& table = shared_->tables_.at(step);
            if (table.size() != entries * count)
                throw Error(ErrorCode::InvalidArgument, {},
                            "the kept seconds of elimination step " + std::to_string(step) + " hold " +
                                std::to_string(table.size()) + " cells, its table " + std::to_string(entries * count));
            readSeconds = table.data();
        }
        std::vector<double>* keptSeconds = nullptr;
        if (keeping_ && shared_->cells_ + entries * count > EliminationSeconds::kMaxCells) {
            keeping_ = false;
            shared_->tooLarge_ = true;
            shared_->tables_.clear();
        } else if (keeping_) {
            shared_->cells_ += entries * count;
            keptSeconds = &shared_->tables_.emplace_back();
            keptSeconds->reserve(entries * count);
        }
        const std::vector<FactorView> bucket = readSeconds ? std::vector<FactorView>{} : views(variable, factors);
        // Where the group's candidate moves each child's entry.
        std::vector<std::size_t> childStride;
        for (const std::size_t child : message.children) {
            const Message& table = result_.messages_[child];
            const auto at = std::find(table.scope.begin(), table.scope.end(), variable);
            childStride.push_back(table.strides[static_cast<std::size_t>(at - table.scope.begin())]);
        }
        std::vector<std::size_t> childBase(message.children.size());
        message.offsets.reserve(entries + 1);
        message.offsets.push_back(0);
        std::vector<double> computed;
        std::vector<Point> found;
        std::vector<std::uint32_t> foundProvenance;
        std::vector<Point> partial;
        std::vector<std::uint32_t> partialProvenance;
        std::vector<Point> next;
        std::vector<std::uint32_t> nextProvenance;
        const std::vector<double>& ownBytes = terms_.memoryBytes[variable];
        std::vector<const Point*> childPoints;  // unbounded goals: a point per entry, at its index
        for (const std::size_t child : message.children) {
            const Message& table = result_.messages_[child];
            if (goal_ != EliminationGoal::Frontier && table.points.size() + 1 != table.offsets.size())
                throw Error(ErrorCode::InvalidArgument, {},
                            "an unbounded elimination's table holds " + std::to_string(table.points.size()) +
                                " points for " + std::to_string(table.offsets.size() - 1) + " entries");
            childPoints.push_back(table.points.data());
        }
        for (const std::size_t g : message.scope)
            value_[g] = 0;
        value_[variable] = 0;
        const std::size_t entryWork = count * (width + bucket.size());
        for (std::size_t entry = 0; entry < entries; ++entry) {
            unpolledWork_ += entryWork;
            if (unpolledWork_ >= EliminationLimits::kPollWork) {
                unpolledWork_ = 0;
                if (limits_.cancelled && limits_.cancelled())
                    return false;
            }
            const double* seconds = readSeconds + entry * count;
            if (!readSeconds) {
                bucketSeconds(variable, bucket, computed);
                if (keptSeconds)
                    keptSeconds->insert(keptSeconds->end(), computed.begin(), computed.end());
                seconds = computed.data();
            }
            for (std::size_t k = 0; k < message.children.size(); ++k)
                childBase[k] = entryOf(result_.messages_[message.children[k]]);  // at candidate 0
            found.clear();
            foundProvenance.clear();
            if (goal_ != EliminationGoal::Frontier) {
                // One point per entry: the best candidate with its children's best.
                Point best;
                const std::size_t chosen =
                    goal_ == EliminationGoal::Fastest
                        ? bestCandidate<true>(seconds, ownBytes, childPoints, childBase, childStride, best)
                        : bestCandidate<false>(seconds, ownBytes, childPoints, childBase, childStride, best);
                found.push_back(best);
                foundProvenance.push_back(static_cast<std::uint32_t>(chosen));
                for (std::size_t k = 0; k < message.children.size(); ++k)
                    foundProvenance.push_back(static_cast<std::uint32_t>(childBase[k] + chosen * childStride[k]));
            } else {
                for (std::size_t x = 0; x < count; ++x) {
                    const double bytes = terms_.memoryBytes[variable][x];
                    if (bytes + outsideLeast > partCap_ || seconds[x] + outsideSeconds_ > partBound_)
                        continue;
                    partial.assign(1, Point{seconds[x], bytes});
                    partialProvenance.assign(width, 0);
                    partialProvenance[0] = static_cast<std::uint32_t>(x);
                    for (std::size_t k = 0; k < message.children.size() && !partial.empty(); ++k) {
                        const Message& child = result_.messages_[message.children[k]];
                        const std::size_t at = childBase[k] + x * childStride[k];
                        next.clear();
                        nextProvenance.clear();
                        unpolledWork_ += partial.size() * (child.offsets[at + 1] - child.offsets[at]);
                        for (std::size_t a = 0; a < partial.size(); ++a) {
                            for (std::uint32_t b = child.offsets[at]; b < child.offsets[at + 1]; ++b) {
                                const Point sum{partial[a].seconds + child.points[b].seconds,
                                                partial[a].bytes + child.points[b].bytes};
                                if (sum.bytes + outsideLeast > partCap_ || sum.seconds + outsideSeconds_ > partBound_)
                                    continue;
                                next.push_back(sum);
                                nextProvenance.insert(nextProvenance.end(),
                                                      partialProvenance.begin() + static_cast<std::ptrdiff_t>(a * width),
                                                      partialProvenance.begin() + static_cast<std::ptrdiff_t>((a + 1) * width));
                                nextProvenance[next.size() * width - width + 1 + k] = b;
                            }
                        }
                        keepBest(goal_, price_, next, nextProvenance, width, kept_);
                        std::swap(partial, next);
                        std::swap(partialProvenance, nextProvenance);
                    }
                    found.insert(found.end(), partial.begin(), partial.end());
                    foundProvenance.insert(foundProvenance.end(), partialProvenance.begin(), partialProvenance.end());
                }
                keepBest(goal_, price_, found, foundProvenance, width, kept_);
            }
            message.points.insert(message.points.end(), found.begin(), found.end());
            message.provenance.insert(message.provenance.end(), foundProvenance.begin(), foundProvenance.end());
            message.offsets.push_back(static_cast<std::uint32_t>(message.points.size()));
            points_ += found.size();
            if (points_ > limits_.maxPoints)
                return false;
            // The next combination of the scope's candidates (the last group fastest).
            for (std::size_t i = message.scope.size(); i-- > 0;) {
                const std::size_t g = message.scope[i];
                if (++value_[g] < terms_.nodeSeconds[g].size())
                    break;
                value_[g] = 0;
            }
        }
        result_.states_ += entries;
        return true;
    }

    // The tables left without a scope (one per connected part of the interaction
    // graph) added up.
    void combineRoots()
    {
        const std::size_t width = result_.rootMessages_.size();
        std::vector<Point> partial{Point{}};
        std::vector<std::uint32_t> provenance(width, 0);
        for (std::size_t k = 0; k < width; ++k) {
            const Message& root = result_.messages_[result_.rootMessages_[k]];
            std::vector<Point> next;
            std::vector<std::uint32_t> nextProvenance;
            for (std::size_t a = 0; a < partial.size(); ++a) {
                for (std::uint32_t b = 0; b < root.points.size(); ++b) {
                    const Point sum{partial[a].seconds + root.points[b].seconds, partial[a].bytes + root.points[b].bytes};
                    if (sum.bytes > cap_ || sum.seconds > bound_)
                        continue;
                    next.push_back(sum);
                    nextProvenance.insert(nextProvenance.end(), provenance.begin() + static_cast<std::ptrdiff_t>(a * width),
                                          provenance.begin() + static_cast<std::ptrdiff_t>((a + 1) * width));
                    nextProvenance[next.size() * width - width + k] = b;
                }
            }
            keepBest(goal_, price_, next, nextProvenance, width, kept_);
            partial = std::move(next);
            provenance = std::move(nextProvenance);
        }
        if (groups_ == 0)
            partial.clear();
        result_.root_ = std::move(partial);
        result_.rootProvenance_ = std::move(provenance);
    }

    const SearchTerms& terms_;
    EliminationSeconds* shared_;
    bool reading_ = false;
    bool keeping_ = false;
    static constexpr double kRoom = 1e-9;
    EliminationGoal goal_;
    double cap_;
    double bound_;
    double price_;
    double partCap_;
    double partBound_;
    const EliminationLimits& limits_;
    TermElimination& result_;
    std::size_t groups_;
    std::vector<TimeFactor> factors_;
    std::vector<double> leastBytes_;
    std::vector<double> leastSeconds_;
    double outsideSeconds_ = 0;  // the least the groups outside the table being filled add
    std::vector<std::size_t> order_;
    std::vector<std::size_t> position_;
    std::vector<std::size_t> value_;  // the candidate of each group while filling
    KeepScratch kept_;
    std::size_t points_ = 0;
    std::size_t unpolledWork_ = 0;  // steps since `cancelled` was last polled
};

std::optional<TermElimination> TermElimination::solve(const SearchTerms& terms, EliminationGoal goal,
                                                      const EliminationBounds& bounds, const EliminationLimits& limits,
                                                      EliminationSeconds* seconds)
{
    if (seconds && seconds->terms_ != &terms)
        throw Error(ErrorCode::InvalidArgument, {}, "an elimination's kept seconds belong to another program");
    TermElimination result;
    for (const std::vector<double>& candidates : terms.nodeSeconds) {
        if (candidates.empty())
            return result;  // a group with no candidate: no choice at all
    }
    TermEliminator eliminator(terms, goal, bounds, limits, seconds, result);
    if (!eliminator.run())
        return std::nullopt;
    return result;
}

std::vector<std::size_t> TermElimination::choice(std::size_t point) const
{
    std::vector<std::size_t> chosen(groups_, 0);
    std::vector<std::pair<std::size_t, std::uint32_t>> pending;  // (message, point)
    const std::size_t width = rootMessages_.size();
    for (std::size_t k = 0; k < width; ++k)
        pending.emplace_back(rootMessages_[k], rootProvenance_[point * width + k]);
    while (!pending.empty()) {
        const auto [id, taken] = pending.back();
        pending.pop_back();
        const Message& message = messages_[id];
        const std::size_t stride = 1 + message.children.size();
        chosen[message.variable] = message.provenance[taken * stride];
        for (std::size_t k = 0; k < message.children.size(); ++k)
            pending.emplace_back(message.children[k], message.provenance[taken * stride + 1 + k]);
    }
    return chosen;
}

std::optional<std::size_t> TermElimination::fastestWithin(double limitBytes) const
{
    std::optional<std::size_t> fastest;
    for (std::size_t i = 0; i < root_.size() && root_[i].bytes <= limitBytes; ++i)
        fastest = i;
    return fastest;
}

}  // namespace tapestry
