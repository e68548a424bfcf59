#include "iopddl/StressProblem.h"

#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>

namespace tapestry {

namespace {

constexpr std::int64_t kForbidden = 1'000'000'000'000'000'000;
// Strategy counts and their weights, roughly as in the contest's problems.
constexpr std::array<int, 10> kStrategyCounts{1, 2, 4, 9, 12, 14, 15, 16, 22, 25};
constexpr std::array<double, 10> kStrategyWeights{4, 12, 33, 17, 3, 8, 5, 3, 4, 3};
constexpr double kForbiddenCellShare = 0.35;
constexpr double kForbiddenStrategyShare = 0.03;
constexpr double kWeightShare = 0.05;
// Where between the smallest possible peak and the cheapest plan's peak the limit sits.
constexpr double kLimitTightness = 0.3;

struct Strategy {
    int shards = 1;
    int layout = 0;
};

}  // namespace

ShardingProblem generateStressProblem(int nodeCount, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random); };
    const auto chance = [&](double p) { return uniform(0, 1) < p; };
    const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    std::discrete_distribution<std::size_t> strategyCount(kStrategyWeights.begin(), kStrategyWeights.end());

    ShardingProblem problem;
    problem.name = "stress-" + std::to_string(nodeCount) + "-" + std::to_string(seed);
    const auto n = static_cast<std::size_t>(nodeCount);
    problem.nodes.resize(n);
    std::vector<std::vector<Strategy>> strategies(n);
    std::vector<double> bytes(n);
    Assignment reference(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        ProblemNode& node = problem.nodes[i];
        bytes[i] = std::exp(uniform(std::log(1e4), std::log(1e8)));
        const double flops = bytes[i] * uniform(0.5, 10);
        const int count = kStrategyCounts[strategyCount(random)];
        int smallest = 0;
        for (int s = 0; s < count; ++s) {
            const Strategy strategy{s == 0 ? 1 : 1 << pick(1, 5), pick(0, 5)};
            strategies[i].push_back(strategy);
            // Sharding saves compute and memory and costs communication: neither the
            // cheapest nor the smallest strategy wins everywhere.
            const double communication = 0.3 * bytes[i] * std::log2(strategy.shards) * uniform(0.5, 1.5);
            node.costs.push_back(std::llround((flops / strategy.shards + communication) * uniform(0.9, 1.1)));
            node.usages.push_back(std::llround(bytes[i] / strategy.shards));
            if (node.usages.back() < node.usages[static_cast<std::size_t>(smallest)])
                smallest = s;
        }
        reference[i] = smallest;
        for (int s = 0; s < count; ++s)
            if (s != reference[i] && chance(kForbiddenStrategyShare))
                node.costs[static_cast<std::size_t>(s)] = kForbidden;
    }

    // Producer -> consumer edges: a chain with skip connections and a few new chains.
    std::vector<std::int64_t> lastUse(n);
    for (std::size_t i = 0; i < n; ++i)
        lastUse[i] = static_cast<std::int64_t>(i) + 1;
    const auto connect = [&](std::size_t u, std::size_t v) {
        ProblemEdge edge{static_cast<int>(u), static_cast<int>(v), {}};
        const std::size_t rows = strategies[u].size();
        const std::size_t columns = strategies[v].size();
        for (std::size_t a = 0; a < rows; ++a) {
            const std::size_t rowStart = edge.costs.size();
            for (std::size_t b = 0; b < columns; ++b) {
                const Strategy& from = strategies[u][a];
                const Strategy& to = strategies[v][b];
                const bool same = from.layout == to.layout && from.shards == to.shards;
                const double relayout = same ? 0.0
                                             : bytes[u] / std::min(from.shards, to.shards) * 0.5
                                                   * (1 + std::abs(std::log2(from.shards) - std::log2(to.shards)));
                const bool kept = static_cast<int>(a) == reference[u] && static_cast<int>(b) == reference[v];
                edge.costs.push_back(!same && !kept && chance(kForbiddenCellShare) ? kForbidden : std::llround(relayout));
            }
            // Every producer strategy keeps some allowed consumer strategy.
            const auto row = edge.costs.begin() + static_cast<std::ptrdiff_t>(rowStart);
            if (std::all_of(row, edge.costs.end(), [](std::int64_t c) { return c >= kForbidden; }))
                edge.costs[rowStart + static_cast<std::size_t>(pick(0, static_cast<int>(columns) - 1))] =
                    std::llround(bytes[u]);
        }
        problem.edges.push_back(std::move(edge));
        lastUse[u] = std::max(lastUse[u], static_cast<std::int64_t>(v) + 1);
    };
    for (std::size_t v = 1; v < n; ++v) {
        if (chance(0.02))
            continue;  // a new chain starts here
        const int window = chance(0.7) ? 1 : 200;
        connect(static_cast<std::size_t>(pick(std::max(0, static_cast<int>(v) - window), static_cast<int>(v) - 1)), v);
        if (v > 1 && chance(0.35)) {
            const int other = pick(std::max(0, static_cast<int>(v) - 60), static_cast<int>(v) - 2);
            connect(static_cast<std::size_t>(other), v);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        ProblemNode& node = problem.nodes[i];
        const bool weight = chance(kWeightShare);
        node.lo = weight ? 0 : static_cast<std::int64_t>(i);
        node.hi = weight ? static_cast<std::int64_t>(n) : lastUse[i];
    }

    // A limit that binds, between the smallest possible peak and the cheapest plan's
    // peak, and that the reference fits.
    Assignment cheapest(n);
    Assignment smallest(n);
    for (std::size_t i = 0; i < n; ++i) {
        const ProblemNode& node = problem.nodes[i];
        cheapest[i] = static_cast<int>(std::min_element(node.costs.begin(), node.costs.end()) - node.costs.begin());
        smallest[i] = static_cast<int>(std::min_element(node.usages.begin(), node.usages.end()) - node.usages.begin());
    }
    const std::int64_t least = evaluateSolution(problem, smallest).peakUsage;
    const std::int64_t cheap = evaluateSolution(problem, cheapest).peakUsage;
    const std::int64_t fits = evaluateSolution(problem, reference).peakUsage;
    problem.usageLimit =
        std::max(fits, least + static_cast<std::int64_t>(kLimitTightness * static_cast<double>(cheap - least)));
    return problem;
}

}  // namespace tapestry
