#include "solver/IlpNeighbourhoodSearch.h"

#include "solver/IlpSolver.h"
#include "solver/SolutionEvaluator.h"
#include "solver/Subproblem.h"

#include <algorithm>
#include <random>

namespace tapestry {

namespace {

constexpr double kSecondsPerRegion = 4.0;
constexpr double kStartSize = 120;
constexpr double kMinSize = 20;
constexpr double kMaxSize = 3000;

}  // namespace

bool improveWithIlpRegions(const ShardingProblem& problem, Assignment& assignment, std::uint64_t seed,
                           std::chrono::steady_clock::time_point deadline)
{
    using Clock = std::chrono::steady_clock;
    std::vector<std::vector<int>> neighbours(problem.nodes.size());
    for (const ProblemEdge& edge : problem.edges) {
        neighbours[static_cast<std::size_t>(edge.u)].push_back(edge.v);
        neighbours[static_cast<std::size_t>(edge.v)].push_back(edge.u);
    }
    std::vector<int> movable;
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        if (problem.nodes[i].strategyCount() > 1)
            movable.push_back(static_cast<int>(i));
    if (movable.empty())
        return false;

    std::mt19937_64 random(seed);
    std::vector<int> seen(problem.nodes.size(), 0);
    int epoch = 0;
    double size = kStartSize;
    bool improved = false;
    while (true) {
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (left < 0.5)
            break;
        // Breadth-first ball from a random node, in random neighbour order.
        ++epoch;
        std::vector<int> region{movable[std::uniform_int_distribution<std::size_t>(0, movable.size() - 1)(random)]};
        seen[static_cast<std::size_t>(region.front())] = epoch;
        for (std::size_t head = 0; head < region.size() && region.size() < static_cast<std::size_t>(size); ++head) {
            std::vector<int> next = neighbours[static_cast<std::size_t>(region[head])];
            std::shuffle(next.begin(), next.end(), random);
            for (const int w : next) {
                if (seen[static_cast<std::size_t>(w)] == epoch || problem.nodes[static_cast<std::size_t>(w)].strategyCount() < 2)
                    continue;
                seen[static_cast<std::size_t>(w)] = epoch;
                region.push_back(w);
                if (region.size() >= static_cast<std::size_t>(size))
                    break;
            }
        }
        const Subproblem sub(problem, assignment, region);
        const auto began = Clock::now();
        const double limit = std::min(kSecondsPerRegion, left - 0.3);
        const IlpOutcome outcome = solveWithIlp(sub.problem(), limit, &sub.current());
        const double took = std::chrono::duration<double>(Clock::now() - began).count();
        if (outcome.provenOptimal && took < 0.3 * limit)
            size = std::min(kMaxSize, size * 1.2);
        else if (!outcome.provenOptimal)
            size = std::max(kMinSize, size * 0.8);
        if (!outcome.assignment)
            continue;
        const SolutionEvaluation before = evaluateSolution(sub.problem(), sub.current());
        const SolutionEvaluation after = evaluateSolution(sub.problem(), *outcome.assignment);
        if (after.feasible && after.cost < before.cost) {
            sub.apply(*outcome.assignment, assignment);
            improved = true;
        }
    }
    return improved;
}

}  // namespace tapestry
