#include "search/ShardingProblemEncoding.h"

#include "base/Error.h"
#include "search/SearchTerms.h"
#include "solver/ProblemReducer.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace tapestry {

namespace {

std::int64_t toUnits(double value, double unitsPerValue)
{
    const double units = std::round(value * unitsPerValue);
    if (!(units >= 0 && units < static_cast<double>(kCostCap)))
        throw Error(ErrorCode::InvalidArgument, {},
                    "search: a term of the search problem (" + std::to_string(value) +
                        ") does not fit the solver's cost range");
    return static_cast<std::int64_t>(units);
}

// Edges keyed by their two nodes, so that terms joining one pair add up in one edge.
class EdgeTable {
public:
    explicit EdgeTable(ShardingProblem& problem) : problem_(problem) {}

    // Adds `cost` to the entry where node u takes su and node v takes sv, saturating at
    // the forbidden cost.
    void add(int u, int su, int v, int sv, std::int64_t cost)
    {
        if (u > v) {
            std::swap(u, v);
            std::swap(su, sv);
        }
        const auto [it, inserted] = index_.try_emplace({u, v}, problem_.edges.size());
        if (inserted) {
            const std::size_t entries = problem_.nodes[static_cast<std::size_t>(u)].costs.size() *
                                        problem_.nodes[static_cast<std::size_t>(v)].costs.size();
            problem_.edges.push_back({u, v, std::vector<std::int64_t>(entries, 0)});
        }
        std::int64_t& entry = problem_.edges[it->second].costs[static_cast<std::size_t>(
            su * problem_.nodes[static_cast<std::size_t>(v)].strategyCount() + sv)];
        entry = std::min(ShardingProblemEncoding::kForbiddenCost, entry + cost);
    }

private:
    ShardingProblem& problem_;
    std::map<std::pair<int, int>, std::size_t> index_;
};

// Only one group needs the layout: "needed" is "that group takes a needing candidate",
// a plain edge (or, when that group is the producer, its own node cost); no hub.
void addDirectConversion(const SearchTerms::SharedConversion& conversion, ShardingProblem& problem, EdgeTable& edges)
{
    const auto& [group, candidates] = conversion.needing.front();
    for (const auto& [p, seconds] : conversion.price) {
        const std::int64_t cost = toUnits(seconds, ShardingProblemEncoding::kUnitsPerSecond);
        for (const std::size_t c : candidates) {
            if (group != conversion.producer)
                edges.add(static_cast<int>(conversion.producer), static_cast<int>(p), static_cast<int>(group),
                          static_cast<int>(c), cost);
            else if (c == p)
                problem.nodes[group].costs[p] += cost;
        }
    }
}

}  // namespace

ShardingProblemEncoding::ShardingProblemEncoding(const CostModel& costs, const CoarseGraph& coarse,
                                                 const std::vector<StrategyGroup>& groups,
                                                 std::optional<double> memoryLimitBytes, bool minimizeMemory)
    : groups_(groups)
{
    for (const StrategyGroup& group : groups) {
        if (group.members.empty() || group.candidates.empty())
            throw Error(ErrorCode::InvalidArgument, {}, "search: a strategy group has no members or no candidates");
    }
    const SearchTerms terms = priceSearchTerms(costs, coarse, groups, !minimizeMemory);
    problem_.name = "search";
    for (std::size_t g = 0; g < groups.size(); ++g) {
        ProblemNode node;
        node.lo = 0;
        node.hi = 1;
        for (std::size_t c = 0; c < groups[g].candidates.size(); ++c) {
            node.costs.push_back(minimizeMemory ? toUnits(terms.memoryBytes[g][c], 1.0)
                                                : toUnits(terms.nodeSeconds[g][c], kUnitsPerSecond));
            node.usages.push_back(toUnits(terms.memoryBytes[g][c], 1.0));
        }
        problem_.nodes.push_back(std::move(node));
    }
    if (memoryLimitBytes && !minimizeMemory)
        problem_.usageLimit = static_cast<std::int64_t>(std::floor(std::max(0.0, *memoryLimitBytes)));

    EdgeTable edges(problem_);
    for (const SearchTerms::PairTerm& term : terms.pairs) {
        for (std::size_t p = 0; p < term.seconds.size(); ++p) {
            for (std::size_t c = 0; c < term.seconds[p].size(); ++c)
                edges.add(static_cast<int>(term.producer), static_cast<int>(p), static_cast<int>(term.consumer),
                          static_cast<int>(c), toUnits(term.seconds[p][c], kUnitsPerSecond));
        }
    }
    for (const SearchTerms::SharedConversion& conversion : terms.sharedConversions) {
        if (conversion.needing.size() == 1) {
            addDirectConversion(conversion, problem_, edges);
            continue;
        }
        const int hub = static_cast<int>(problem_.nodes.size());
        problem_.nodes.push_back({0, 0, {0, 0}, {0, 0}});
        for (const auto& [p, seconds] : conversion.price)
            edges.add(static_cast<int>(conversion.producer), static_cast<int>(p), hub, 1,
                      toUnits(seconds, kUnitsPerSecond));
        for (const auto& [group, candidates] : conversion.needing) {
            for (const std::size_t c : candidates)
                edges.add(static_cast<int>(group), static_cast<int>(c), hub, 0, kForbiddenCost);
        }
        hubs_.push_back({hub, conversion.needing});
    }
}

std::vector<std::size_t> ShardingProblemEncoding::choiceOf(const Assignment& assignment) const
{
    std::vector<std::size_t> choice;
    for (std::size_t g = 0; g < groups_.size(); ++g)
        choice.push_back(static_cast<std::size_t>(assignment.at(g)));
    return choice;
}

Assignment ShardingProblemEncoding::assignmentOf(const Plan& plan) const
{
    std::vector<std::size_t> choice;
    for (const StrategyGroup& group : groups_) {
        const NodeStrategy& strategy = plan.strategies.at(group.members.front().index());
        const auto it = std::find(group.candidates.begin(), group.candidates.end(), strategy);
        const bool tied = std::all_of(group.members.begin(), group.members.end(), [&](CoarseNodeId member) {
            return plan.strategies.at(member.index()) == strategy;
        });
        if (it == group.candidates.end() || !tied)
            throw Error(ErrorCode::InvalidPlan, {},
                        "plan '" + plan.name + "' is not a choice of the search problem's strategy groups");
        choice.push_back(static_cast<std::size_t>(it - group.candidates.begin()));
    }
    return assignmentOf(choice);
}

Assignment ShardingProblemEncoding::assignmentOf(const std::vector<std::size_t>& choice) const
{
    Assignment assignment(choice.begin(), choice.end());
    assignment.resize(problem_.nodes.size(), 0);
    for (const Hub& hub : hubs_) {
        const bool needed = std::any_of(hub.needing.begin(), hub.needing.end(), [&](const auto& entry) {
            const auto& [group, candidates] = entry;
            return std::find(candidates.begin(), candidates.end(), choice[group]) != candidates.end();
        });
        assignment[static_cast<std::size_t>(hub.node)] = needed ? 1 : 0;
    }
    return assignment;
}

}  // namespace tapestry
