#include "solver/LagrangianSearch.h"

#include "solver/LocalSearch.h"
#include "solver/MessagePassing.h"
#include "solver/MemoryRepair.h"
#include "solver/ProblemReducer.h"
#include "solver/SolutionEvaluator.h"
#include "solver/TimeHorizon.h"

#include <algorithm>
#include <limits>

namespace tapestry {

namespace {

// Moves per relaxed solve: a few per core node, enough to settle after a price change.
constexpr std::int64_t kMovesPerNode = 3;
constexpr std::int64_t kMinMovesPerIteration = 4000;
constexpr int kSweepsPerIteration = 30;
// Repaired plans of about one cost lie in basins that polish to very different costs
// (S: one at 1.571e9 polishes to 1.529e9 in 30k moves, one at 1.601e9 to 1.568e9), so
// the feasible local search polishes each plan within this share of the best repaired
// cost so far, with about a move per node, before it is judged.
constexpr double kPolishWindow = 0.05;
constexpr std::int64_t kPolishMovesPerNode = 1;
// The cost of the search's own best before it has one: above any plan's (forbidden
// cells count kCostCap, 1e15, each).
constexpr CostSum kNoPlan = CostSum{1} << 120;

}  // namespace

Assignment searchLagrangian(const ShardingProblem& problem, const Assignment& feasibleStart, std::uint64_t seed,
                            std::chrono::steady_clock::time_point softDeadline,
                            std::chrono::steady_clock::time_point deadline, std::stop_token stop,
                            const std::function<void(const Assignment&)>& improved,
                            const std::function<void(double)>& bounded)
{
    Assignment best = feasibleStart;
    CostSum bestCost = evaluateSolution(problem, best).cost;
    // The best of the search's own plans. The start is only the fallback it returns: its
    // steps, its end and whether its plans improve go by what it finds itself (from an
    // allowed start of twice the optimum, public A's repaired plans, which pay forbidden
    // costs at first, never counted as better and its steps shrank to nothing: 9.70e9 at
    // 60 s where main, whose start paid forbidden costs, reached 6.57e9).
    CostSum ownCost = kNoPlan;
    const double limit = static_cast<double>(problem.usageLimit.value_or(0));
    double bestBound = -std::numeric_limits<double>::infinity();
    const std::int64_t horizon = timeHorizon(problem);

    // The relaxed problem prices usage instead of limiting it, so every node becomes
    // eliminable: ProblemReducer folds the leaves and chains exactly and the local
    // search only works on the remaining core.
    std::vector<double> multipliers(static_cast<std::size_t>(horizon), 0.0);
    std::vector<double> prefix(static_cast<std::size_t>(horizon) + 1, 0.0);
    std::vector<double> rates(problem.nodes.size(), 0.0);
    Assignment x = feasibleStart;
    double theta = 1.0;
    int sinceBest = 0;
    const auto running = [&] {
        const auto now = std::chrono::steady_clock::now();
        return now < deadline && !stop.stop_requested()
               && (now < softDeadline || ownCost >= kCostCap);
    };
    const std::int64_t polishMoves =
        std::max(kMinMovesPerIteration, kPolishMovesPerNode * static_cast<std::int64_t>(problem.nodes.size()));
    CostSum bestRepaired = ownCost;
    for (std::uint64_t iteration = 0; running(); ++iteration) {
        ShardingProblem priced = problem;
        priced.usageLimit.reset();
        for (std::size_t i = 0; i < priced.nodes.size(); ++i) {
            ProblemNode& node = priced.nodes[i];
            if (rates[i] <= 0)
                continue;
            for (std::size_t s = 0; s < node.costs.size(); ++s) {
                const double price = rates[i] * static_cast<double>(node.usages[s]);
                node.costs[s] = price >= static_cast<double>(kCostCap)
                                    ? kCostCap
                                    : std::min(kCostCap, node.costs[s] + static_cast<std::int64_t>(price));
            }
        }
        // The clock is checked inside the iteration too: on a slow machine one iteration
        // of a large problem takes seconds.
        const auto due = [&] { return !running(); };
        const ProblemReducer core(priced, due);
        MessagePassing messages(core.reduced());
        for (int k = 0; k < kSweepsPerIteration && !due(); ++k)
            messages.sweep();
        // L(multipliers) = min over x of cost + sum_t m_t (usage_t - limit) <= optimum,
        // bounded below by the priced core's bound (prices rounded down only lower it).
        double pricedLimit = 0;
        for (const double m : multipliers)
            pricedLimit += m * limit;
        if (const double bound = messages.lowerBound() + static_cast<double>(core.offset()) - pricedLimit;
            bound > bestBound) {
            bestBound = bound;
            if (bounded)
                bounded(bound);
        }
        LocalSearch relaxed(core.reduced(), messages.decode(), seed + iteration, false);
        const std::int64_t moves =
            std::max(kMinMovesPerIteration, kMovesPerNode * static_cast<std::int64_t>(core.reduced().nodes.size()));
        for (std::int64_t done = 0; done < moves && !due(); done += kMinMovesPerIteration)
            relaxed.run(std::min(kMinMovesPerIteration, moves - done));
        x = core.expand(relaxed.current());
        std::vector<std::int64_t> usage(static_cast<std::size_t>(horizon), 0);
        const UsageProfile profile = usageProfile(problem, x);
        for (std::size_t k = 0; k < profile.times.size(); ++k) {
            const std::int64_t until = k + 1 < profile.times.size() ? profile.times[k + 1] : profile.end;
            std::fill(usage.begin() + profile.times[k], usage.begin() + until, profile.usages[k]);
        }

        Assignment repaired = repairMemory(problem, x);
        SolutionEvaluation check = evaluateSolution(problem, repaired);
        if (check.feasible && check.cost >= kCostCap) {
            // The repair broke pairs that only a joint move mends: the feasible local
            // search (forced groups included) clears them, as far as its moves get.
            LocalSearch mend(problem, repaired, seed + iteration);
            for (std::int64_t done = 0; done < moves && mend.bestCost() >= kCostCap && !due(); done += kMinMovesPerIteration)
                mend.run(kMinMovesPerIteration);
            repaired = mend.best();
            check = evaluateSolution(problem, repaired);
        }
        const auto keep = [&](const Assignment& plan, const SolutionEvaluation& evaluation) {
            if (!evaluation.feasible || evaluation.cost >= ownCost)
                return false;
            ownCost = evaluation.cost;
            if (ownCost < bestCost) {
                bestCost = ownCost;
                best = plan;
                if (improved)
                    improved(best);
            }
            return true;
        };
        // Kept before it is polished too: on a loaded machine polishing takes seconds,
        // and the first plan free of forbidden costs is the one a short limit needs.
        bool better = keep(repaired, check);
        if (check.feasible && check.cost < kCostCap
            && static_cast<double>(check.cost) <= (1 + kPolishWindow) * static_cast<double>(bestRepaired)) {
            bestRepaired = std::min(bestRepaired, check.cost);
            LocalSearch polish(problem, repaired, seed + iteration + 1);
            for (std::int64_t done = 0; done < polishMoves && !due(); done += kMinMovesPerIteration)
                polish.run(kMinMovesPerIteration);
            better = keep(polish.best(), evaluateSolution(problem, polish.best())) || better;
        }
        if (better)
            sinceBest = 0;
        else if (++sinceBest % 5 == 0)
            theta = std::max(theta * 0.5, 0.01);

        if (!problem.usageLimit)
            break;  // nothing is priced: one relaxed solve is the whole search

        // Polyak step: (upper bound - relaxed value) / |g|^2, g = usage - limit, over
        // the time points where the multiplier may move.
        double relaxedValue = static_cast<double>(evaluateSolution(problem, x).cost);
        double norm = 0;
        for (std::size_t t = 0; t < multipliers.size(); ++t) {
            const double g = static_cast<double>(usage[t]) - limit;
            relaxedValue += multipliers[t] * g;
            if (g > 0 || multipliers[t] > 0)
                norm += g * g;
        }
        if (norm == 0)
            continue;  // relaxed solution fits: it was repaired into itself
        // While its best plan still pays forbidden costs it is no useful bound.
        const double target = ownCost < kCostCap ? static_cast<double>(ownCost) : 2.0 * relaxedValue;
        const double step = theta * std::max(target - relaxedValue, 0.01 * target) / norm;
        for (std::size_t t = 0; t < multipliers.size(); ++t)
            multipliers[t] = std::max(0.0, multipliers[t] + step * (static_cast<double>(usage[t]) - limit));
        for (std::size_t t = 0; t < multipliers.size(); ++t)
            prefix[t + 1] = prefix[t] + multipliers[t];
        for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
            const ProblemNode& node = problem.nodes[i];
            rates[i] = prefix[static_cast<std::size_t>(node.hi)] - prefix[static_cast<std::size_t>(node.lo)];
        }
    }
    return best;
}

}  // namespace tapestry
