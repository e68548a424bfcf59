#include "solver/ShardingSolver.h"

#include "base/Error.h"
#include "solver/IlpNeighbourhoodSearch.h"
#include "solver/IlpSolver.h"
#include "solver/LagrangianSearch.h"
#include "solver/LocalSearch.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

// Whole-problem ILP when the reduced problem is this small (G, 188k edge cells, is
// solved to optimality by CBC in about 15 s; the 4-6 M cell problems are out of reach).
constexpr std::size_t kWholeIlpCells = 600'000;
// Large problems: share of the time for the Lagrangian phase, then rounds in which
// one thread re-solves regions exactly and the other runs the tree local search,
// exchanging the best assignment between rounds.
constexpr double kLagrangianShare = 0.25;
constexpr double kRoundSeconds = 8.0;
constexpr std::int64_t kMovesPerCheck = 2000;
// CBC can overrun its limit by seconds on a big region (model copies, LP start-ups and
// checks it does not time: up to 10 s seen on A), so region solves stop this long
// before the deadline (at most a quarter of the time limit) and local search alone
// uses the tail.
constexpr double kRegionsTailSeconds = 12.0;

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

Clock::time_point after(Clock::time_point from, double seconds)
{
    return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The best feasible assignment of the reduced problem so far, with progress reports on
// improvement. Reports give the original problem's cost: the reduced one plus the
// offset differs from it where forbidden costs were capped.
class Incumbent {
public:
    Incumbent(const ShardingProblem& original, const ProblemReducer& reducer, const SolverOptions& options,
              Clock::time_point start)
        : original_(original), reducer_(reducer), problem_(reducer.reduced()), options_(options), start_(start)
    {
    }

    void offer(const Assignment& x)
    {
        const SolutionEvaluation e = evaluateSolution(problem_, x);
        if (!e.feasible || (!best_.empty() && e.cost >= cost_))
            return;
        best_ = x;
        cost_ = e.cost;
        if (options_.progress)
            options_.progress(std::chrono::duration<double>(Clock::now() - start_).count(),
                              evaluateSolution(original_, reducer_.expand(x)).cost);
    }
    [[nodiscard]] const Assignment& best() const { return best_; }

private:
    const ShardingProblem& original_;
    const ProblemReducer& reducer_;
    const ShardingProblem& problem_;
    const SolverOptions& options_;
    Clock::time_point start_;
    Assignment best_;
    CostSum cost_ = 0;
};

void runLocalSearch(LocalSearch& search, Clock::time_point deadline, const std::stop_token& stop)
{
    while (Clock::now() < deadline && !stop.stop_requested())
        search.run(kMovesPerCheck);
}

}  // namespace

SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options)
{
    const auto start = Clock::now();
    // Joining threads and expanding the answer take a moment; keep a margin for them.
    const auto deadline = after(start, options.timeLimitSeconds - std::min(2.5, 0.05 * options.timeLimitSeconds));
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
    std::size_t cells = 0;
    for (const ProblemEdge& edge : reduced.edges)
        cells += edge.costs.size();

    Incumbent incumbent(problem, reducer, options, start);
    incumbent.offer(initialAssignment(reduced));
    const std::uint64_t seed = options.seed * 7919;
    const bool twoThreads = options.threads > 1;

    if (cells <= kWholeIlpCells) {
        // Exact: CBC on the whole reduced problem; meanwhile the heuristics on the other
        // thread guarantee a good answer if CBC runs out of time.
        Assignment heuristic;
        std::jthread worker;
        if (twoThreads)
            worker = std::jthread([&](std::stop_token stop) {
                heuristic = searchLagrangian(reduced, incumbent.best(), seed, deadline, stop);
            });
        const Assignment first = incumbent.best();
        const IlpOutcome exact = solveWithIlp(reduced, options.timeLimitSeconds * 0.9, &first, options.stop);
        worker.request_stop();
        if (worker.joinable())
            worker.join();
        if (!heuristic.empty())
            incumbent.offer(heuristic);
        if (exact.assignment)
            incumbent.offer(*exact.assignment);
        result.provenOptimal = exact.provenOptimal && exact.assignment;
    } else {
        {
            const auto phaseEnd = after(start, options.timeLimitSeconds * kLagrangianShare);
            Assignment other;
            std::jthread worker;
            const Assignment first = incumbent.best();
            if (twoThreads)
                worker = std::jthread([&] { other = searchLagrangian(reduced, first, seed + 1, phaseEnd, options.stop); });
            incumbent.offer(searchLagrangian(reduced, first, seed, phaseEnd, options.stop,
                                             [&](const Assignment& x) { incumbent.offer(x); }));
            if (worker.joinable())
                worker.join();
            if (!other.empty())
                incumbent.offer(other);
        }
        LocalSearch local(reduced, incumbent.best(), seed + 2);
        const auto regionsDeadline =
            after(deadline, -std::min(kRegionsTailSeconds, 0.25 * options.timeLimitSeconds));
        for (int round = 0; Clock::now() < deadline && !options.stop.stop_requested(); ++round) {
            const auto roundEnd = std::min(deadline, after(Clock::now(), kRoundSeconds));
            const auto regionsEnd = std::min(roundEnd, regionsDeadline);
            Assignment regions = incumbent.best();
            std::jthread worker;
            if (twoThreads && regionsEnd > after(Clock::now(), 1.0))
                worker = std::jthread([&] {
                    improveWithIlpRegions(reduced, regions, seed + 3 + static_cast<std::uint64_t>(round), regionsEnd,
                                          options.stop);
                });
            runLocalSearch(local, roundEnd, options.stop);
            if (worker.joinable())
                worker.join();
            incumbent.offer(local.best());
            incumbent.offer(regions);
            local.restartFrom(incumbent.best());
        }
    }

    result.cancelled = options.stop.stop_requested();
    result.assignment = reducer.expand(incumbent.best());
    result.cost = evaluateSolution(problem, result.assignment).cost;
    return result;
}

}  // namespace tapestry
