#include "solver/ShardingSolver.h"

#include "base/Error.h"
#include "solver/LagrangianSearch.h"
#include "solver/LocalSearch.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

// Moves per thread between synchronizations (a fraction of a second on the contest
// problems); adoption of the overall best happens every few rounds.
constexpr std::int64_t kMovesPerRound = 3000;
constexpr int kRoundsPerShare = 8;
constexpr double kLagrangianShare = 0.4;

// Cheapest strategy per node when that fits; the smallest usage otherwise (which fits
// whenever anything does).
Assignment initialAssignment(const ShardingProblem& problem)
{
    Assignment cheapest(problem.nodes.size());
    Assignment smallest(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        int c = 0;
        int u = 0;
        for (int s = 1; s < node.strategyCount(); ++s) {
            const auto k = static_cast<std::size_t>(s);
            if (node.costs[k] < node.costs[static_cast<std::size_t>(c)])
                c = s;
            if (node.usages[k] < node.usages[static_cast<std::size_t>(u)]
                || (node.usages[k] == node.usages[static_cast<std::size_t>(u)]
                    && node.costs[k] < node.costs[static_cast<std::size_t>(u)]))
                u = s;
        }
        cheapest[i] = c;
        smallest[i] = u;
    }
    return evaluateSolution(problem, cheapest).feasible ? cheapest : smallest;
}

}  // namespace

SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options)
{
    const auto start = Clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    if (const auto overload = firstUnavoidableOverload(problem)) {
        std::int64_t least = 0;
        for (const ProblemNode& node : problem.nodes)
            if (node.lo <= *overload && *overload < node.hi)
                least += *std::min_element(node.usages.begin(), node.usages.end());
        throw Error(ErrorCode::InfeasibleProblem, problem.name,
                    "at time point " + std::to_string(*overload) + " the smallest usages of the live nodes sum to "
                        + std::to_string(least) + ", above the usage limit " + std::to_string(*problem.usageLimit));
    }

    const ProblemReducer reducer(problem);
    const ShardingProblem& reduced = reducer.reduced();
    SolverResult result;
    result.reduction = reducer.stats();
    result.reducedNodes = reduced.nodes.size();
    result.reducedEdges = reduced.edges.size();

    const int threads = std::max(1, options.threads);
    // Phase 1: Lagrangian relaxation on every thread (different seeds) for a share of
    // the time; phase 2: feasible local search from the best of them.
    Assignment first = initialAssignment(reduced);
    {
        const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(options.timeLimitSeconds * kLagrangianShare));
        std::vector<Assignment> found(static_cast<std::size_t>(threads));
        std::vector<std::thread> workers;
        for (int k = 0; k < threads; ++k)
            workers.emplace_back([&, k] {
                found[static_cast<std::size_t>(k)] =
                    searchLagrangian(reduced, first, options.seed * 7919 + static_cast<std::uint64_t>(k), deadline);
            });
        for (std::thread& worker : workers)
            worker.join();
        CostSum firstCost = evaluateSolution(reduced, first).cost;
        for (const Assignment& candidate : found)
            if (const CostSum cost = evaluateSolution(reduced, candidate).cost; cost < firstCost) {
                firstCost = cost;
                first = candidate;
            }
    }
    std::vector<std::unique_ptr<LocalSearch>> searches;
    for (int k = 0; k < threads; ++k)
        searches.push_back(
            std::make_unique<LocalSearch>(reduced, first, options.seed * 7919 + 100 + static_cast<std::uint64_t>(k)));

    std::int64_t bestCost = searches.front()->bestCost();
    Assignment best = searches.front()->best();
    if (options.progress)
        options.progress(elapsed(), reducer.offset() + bestCost);
    for (int round = 1; elapsed() < options.timeLimitSeconds; ++round) {
        std::vector<std::thread> workers;
        for (int k = 1; k < threads; ++k)
            workers.emplace_back([&, k] { searches[static_cast<std::size_t>(k)]->run(kMovesPerRound); });
        searches.front()->run(kMovesPerRound);
        for (std::thread& worker : workers)
            worker.join();
        bool improved = false;
        for (const auto& search : searches)
            if (search->bestCost() < bestCost) {
                bestCost = search->bestCost();
                best = search->best();
                improved = true;
            }
        if (improved && options.progress)
            options.progress(elapsed(), reducer.offset() + bestCost);
        if (round % kRoundsPerShare == 0)
            for (const auto& search : searches)
                if (search->bestCost() > bestCost)
                    search->restartFrom(best);
    }

    result.assignment = reducer.expand(best);
    result.cost = evaluateSolution(problem, result.assignment).cost;
    return result;
}

}  // namespace tapestry
