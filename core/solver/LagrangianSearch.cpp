#include "solver/LagrangianSearch.h"

#include "solver/LocalSearch.h"
#include "solver/MemoryRepair.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>

namespace tapestry {

namespace {

constexpr std::int64_t kMovesPerIteration = 4000;

std::vector<std::int64_t> usageProfile(const ShardingProblem& problem, const Assignment& x, std::int64_t horizon)
{
    std::vector<std::int64_t> delta(static_cast<std::size_t>(horizon) + 1, 0);
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        const std::int64_t u = node.usages[static_cast<std::size_t>(x[i])];
        delta[static_cast<std::size_t>(node.lo)] += u;
        delta[static_cast<std::size_t>(node.hi)] -= u;
    }
    std::int64_t running = 0;
    for (std::int64_t& d : delta) {
        running += d;
        d = running;
    }
    return delta;
}

}  // namespace

Assignment searchLagrangian(const ShardingProblem& problem, const Assignment& feasibleStart, std::uint64_t seed,
                            std::chrono::steady_clock::time_point deadline, std::stop_token stop)
{
    Assignment best = feasibleStart;
    CostSum bestCost = evaluateSolution(problem, best).cost;
    if (!problem.usageLimit)
        return best;
    const double limit = static_cast<double>(*problem.usageLimit);
    std::int64_t horizon = 1;
    for (const ProblemNode& node : problem.nodes)
        horizon = std::max(horizon, node.hi);

    LocalSearch relaxed(problem, feasibleStart, seed, false);
    std::vector<double> multipliers(static_cast<std::size_t>(horizon), 0.0);
    std::vector<double> prefix(static_cast<std::size_t>(horizon) + 1, 0.0);
    std::vector<double> rates(problem.nodes.size(), 0.0);
    double theta = 1.0;
    int sinceBest = 0;
    while (std::chrono::steady_clock::now() < deadline && !stop.stop_requested()) {
        relaxed.setNodeRates(rates);
        relaxed.run(kMovesPerIteration);
        const Assignment& x = relaxed.current();
        const std::vector<std::int64_t> usage = usageProfile(problem, x, horizon);

        const Assignment repaired = repairMemory(problem, x);
        const SolutionEvaluation check = evaluateSolution(problem, repaired);
        if (check.feasible && check.cost < bestCost) {
            bestCost = check.cost;
            best = repaired;
            sinceBest = 0;
        } else if (++sinceBest % 5 == 0) {
            theta = std::max(theta * 0.5, 0.01);
        }

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
        const double step = theta * std::max(static_cast<double>(bestCost) - relaxedValue, 0.01 * static_cast<double>(bestCost)) / norm;
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
