#include "solver/SolutionEvaluator.h"

#include "base/Error.h"

#include <algorithm>
#include <utility>

namespace tapestry {

namespace {

struct Peak {
    std::int64_t usage = 0;
    std::optional<std::int64_t> firstOver;
    std::int64_t overUsage = 0;
};

// Sweeps interval start/end events in time order; usage is constant between events,
// so checking right after each event time covers every time point.
Peak sweepUsage(const ShardingProblem& problem, const std::vector<std::int64_t>& usage, std::optional<std::int64_t> limit)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> events;
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        if (!node.usesMemory() || usage[i] == 0)
            continue;
        events.emplace_back(node.lo, usage[i]);
        events.emplace_back(node.hi, -usage[i]);
    }
    std::sort(events.begin(), events.end());
    Peak peak;
    std::int64_t current = 0;
    for (std::size_t k = 0; k < events.size();) {
        const std::int64_t time = events[k].first;
        for (; k < events.size() && events[k].first == time; ++k)
            current += events[k].second;
        peak.usage = std::max(peak.usage, current);
        if (limit && current > *limit && !peak.firstOver) {
            peak.firstOver = time;
            peak.overUsage = current;
        }
    }
    return peak;
}

void checkAssignment(const ShardingProblem& problem, const Assignment& assignment)
{
    if (assignment.size() != problem.nodes.size())
        throw Error(ErrorCode::InvalidArgument, {},
                    "the solution has " + std::to_string(assignment.size()) + " strategies for "
                        + std::to_string(problem.nodes.size()) + " nodes");
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const int s = assignment[i];
        if (s < 0 || s >= problem.nodes[i].strategyCount())
            throw Error(ErrorCode::InvalidArgument, {},
                        "node " + std::to_string(i) + " has no strategy " + std::to_string(s) + " (it has "
                            + std::to_string(problem.nodes[i].strategyCount()) + ")");
    }
}

}  // namespace

SolutionEvaluation evaluateSolution(const ShardingProblem& problem, const Assignment& assignment)
{
    checkAssignment(problem, assignment);
    SolutionEvaluation result;
    std::vector<std::int64_t> usage(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const auto s = static_cast<std::size_t>(assignment[i]);
        result.nodeCost += problem.nodes[i].costs[s];
        usage[i] = problem.nodes[i].usages[s];
    }
    for (const ProblemEdge& edge : problem.edges) {
        const auto su = static_cast<std::size_t>(assignment[static_cast<std::size_t>(edge.u)]);
        const auto sv = static_cast<std::size_t>(assignment[static_cast<std::size_t>(edge.v)]);
        result.edgeCost += edge.costs[su * problem.nodes[static_cast<std::size_t>(edge.v)].costs.size() + sv];
    }
    result.cost = result.nodeCost + result.edgeCost;
    const Peak peak = sweepUsage(problem, usage, problem.usageLimit);
    result.peakUsage = peak.usage;
    result.firstViolation = peak.firstOver;
    result.violationUsage = peak.overUsage;
    result.feasible = !peak.firstOver;
    return result;
}

UsageProfile usageProfile(const ShardingProblem& problem, const Assignment& assignment)
{
    checkAssignment(problem, assignment);
    std::vector<std::pair<std::int64_t, std::int64_t>> events;
    UsageProfile profile;
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        if (!node.usesMemory())
            continue;
        profile.end = std::max(profile.end, node.hi);
        const std::int64_t u = node.usages[static_cast<std::size_t>(assignment[i])];
        events.emplace_back(node.lo, u);
        events.emplace_back(node.hi, -u);
    }
    std::sort(events.begin(), events.end());
    std::int64_t current = 0;
    const auto step = [&](std::int64_t time) {
        if (profile.usages.empty() || profile.usages.back() != current) {
            profile.times.push_back(time);
            profile.usages.push_back(current);
        }
    };
    step(0);
    for (std::size_t k = 0; k < events.size();) {
        const std::int64_t time = events[k].first;
        for (; k < events.size() && events[k].first == time; ++k)
            current += events[k].second;
        if (time < profile.end)
            step(time);
    }
    return profile;
}

std::optional<std::int64_t> firstUnavoidableOverload(const ShardingProblem& problem)
{
    if (!problem.usageLimit)
        return std::nullopt;
    std::vector<std::int64_t> usage(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        usage[i] = *std::min_element(problem.nodes[i].usages.begin(), problem.nodes[i].usages.end());
    return sweepUsage(problem, usage, problem.usageLimit).firstOver;
}

std::string costToString(CostSum cost)
{
    if (cost == 0)
        return "0";
    const bool negative = cost < 0;
    std::string digits;
    for (CostSum rest = negative ? -cost : cost; rest > 0; rest /= 10)
        digits += static_cast<char>('0' + static_cast<int>(rest % 10));
    if (negative)
        digits += '-';
    return {digits.rbegin(), digits.rend()};
}

}  // namespace tapestry
