#include "solver/KnapsackCovers.h"

#include <algorithm>
#include <map>

namespace tapestry {

namespace {

// A point's weight at or above 1 - this counts as whole.
constexpr double kWhole = 1e-9;
// The weights are whole numbers: a set exceeds the room when it tops it by half a unit
// (exact in doubles up to 2^53).
constexpr double kExceeds = 0.5;
// The search for the cheapest cover keeps at most this many partial covers per group
// (the cheapest; a heuristic bound, the separation need not find every cut).
constexpr std::size_t kMostStates = 512;

// One group of the row: its columns by falling weight, and per distinct weight (a
// threshold) the point's weight on the columns at or above it.
struct GroupLevels {
    std::vector<std::pair<double, int>> columns;  // weight, column
    std::vector<double> thresholds;               // distinct weights, falling
    std::vector<double> above;                    // per threshold
    double base = 0;  // the largest threshold the point takes wholly (0: none)
};

// A partial cover: the weight it adds above the groups' bases, what it costs (the
// point's weight missing from its thresholds), and how it was built.
struct Partial {
    double extra = 0;
    double cost = 0;
    int parent = -1;
    int group = -1;
    int level = -1;
};

}  // namespace

std::optional<RowCut> violatedCover(const ChoiceKnapsack& row, const double* x, double minViolation)
{
    std::map<int, GroupLevels> byGroup;
    for (std::size_t k = 0; k < row.columns.size(); ++k)
        byGroup[row.groups[k]].columns.emplace_back(row.weights[k], row.columns[k]);
    std::vector<GroupLevels> groups;
    double baseSum = 0;
    for (auto& [group, levels] : byGroup) {
        std::sort(levels.columns.begin(), levels.columns.end(), std::greater<>());
        double above = 0;
        for (std::size_t k = 0; k < levels.columns.size(); ++k) {
            above += x[levels.columns[k].second];
            if (k + 1 < levels.columns.size() && levels.columns[k + 1].first == levels.columns[k].first)
                continue;
            levels.thresholds.push_back(levels.columns[k].first);
            levels.above.push_back(above);
            if (above >= 1 - kWhole && levels.base == 0)
                levels.base = levels.columns[k].first;
        }
        baseSum += levels.base;
        groups.push_back(std::move(levels));
    }

    // The cheapest choice of thresholds above the bases that exceeds the room (a
    // multiple-choice covering knapsack), over partial covers that stay cheaper than a
    // violated cut allows, each kept only while no cheaper one adds as much.
    const double need = row.room + kExceeds - baseSum;
    std::vector<Partial> partials{Partial{}};
    std::vector<int> frontier{0};
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const GroupLevels& levels = groups[g];
        std::vector<int> next = frontier;
        for (const int from : frontier)
            for (std::size_t level = 0; level < levels.thresholds.size(); ++level) {
                const double cost = partials[static_cast<std::size_t>(from)].cost + 1 - levels.above[level];
                if (levels.thresholds[level] <= levels.base || cost >= 1 - minViolation)
                    continue;
                partials.push_back(Partial{partials[static_cast<std::size_t>(from)].extra + levels.thresholds[level] - levels.base,
                                           cost, from, static_cast<int>(g), static_cast<int>(level)});
                next.push_back(static_cast<int>(partials.size()) - 1);
            }
        std::sort(next.begin(), next.end(), [&](int a, int b) {
            const Partial& pa = partials[static_cast<std::size_t>(a)];
            const Partial& pb = partials[static_cast<std::size_t>(b)];
            return pa.cost < pb.cost || (pa.cost == pb.cost && pa.extra > pb.extra);
        });
        frontier.clear();
        for (const int k : next)
            if (frontier.empty() || partials[static_cast<std::size_t>(k)].extra > partials[static_cast<std::size_t>(frontier.back())].extra)
                frontier.push_back(k);
        if (frontier.size() > kMostStates)
            frontier.resize(kMostStates);
    }
    const auto best = std::find_if(frontier.begin(), frontier.end(),
                                   [&](int k) { return partials[static_cast<std::size_t>(k)].extra > need; });
    if (best == frontier.end())
        return std::nullopt;

    std::vector<double> threshold(groups.size());
    std::vector<double> missing(groups.size(), 0.0);
    for (std::size_t g = 0; g < groups.size(); ++g)
        threshold[g] = groups[g].base;
    for (int k = *best; partials[static_cast<std::size_t>(k)].parent >= 0; k = partials[static_cast<std::size_t>(k)].parent) {
        const Partial& p = partials[static_cast<std::size_t>(k)];
        const auto g = static_cast<std::size_t>(p.group);
        threshold[g] = groups[g].thresholds[static_cast<std::size_t>(p.level)];
        missing[g] = 1 - groups[g].above[static_cast<std::size_t>(p.level)];
    }
    // Drop groups while the rest still exceed the room: the most missing first (each
    // raises the violation by what it misses), then the lightest.
    std::vector<std::size_t> members;
    double sum = 0;
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (threshold[g] > 0) {
            members.push_back(g);
            sum += threshold[g];
        }
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
        return missing[a] > missing[b] || (missing[a] == missing[b] && threshold[a] < threshold[b]);
    });
    std::vector<std::size_t> kept;
    for (const std::size_t g : members) {
        if (sum - threshold[g] > row.room + kExceeds)
            sum -= threshold[g];
        else
            kept.push_back(g);
    }
    // Lower each threshold as far as the sum still exceeds the room.
    for (const std::size_t g : kept) {
        const double slack = sum - (row.room + kExceeds);
        const std::vector<double>& levels = groups[g].thresholds;
        double lowest = threshold[g];
        for (const double w : levels)
            if (w > threshold[g] - slack)
                lowest = std::min(lowest, w);
        sum -= threshold[g] - lowest;
        threshold[g] = lowest;
    }
    RowCut cut;
    cut.upper = static_cast<double>(kept.size()) - 1;
    double lhs = 0;
    for (const std::size_t g : kept)
        for (const auto& [weight, column] : groups[g].columns)
            if (weight >= threshold[g]) {
                cut.columns.push_back(column);
                cut.values.push_back(1.0);
                lhs += x[column];
            }
    if (lhs - cut.upper <= minViolation)
        return std::nullopt;
    return cut;
}

}  // namespace tapestry
