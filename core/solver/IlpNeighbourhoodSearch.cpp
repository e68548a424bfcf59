#include "solver/IlpNeighbourhoodSearch.h"

#include "solver/IlpSolver.h"
#include "solver/SolutionEvaluator.h"
#include "solver/Subproblem.h"

#include <algorithm>
#include <random>
#include <utility>

namespace tapestry {

namespace {

constexpr double kSecondsPerRegion = 4.0;
// Region size in edge cells (the model's columns), which is what CBC's time depends on.
constexpr double kStartSize = 20'000;
constexpr double kMinSize = 2'000;
constexpr double kMaxSize = 2'000'000;
// Roots are the costliest of a few random nodes: regions go where the cost is.
constexpr int kRootTournament = 4;
constexpr std::size_t kMemoryPartners = 8;
// Weight below which a relaxation does not agree with a plan's strategy (the LP's own
// rounding noise is far smaller).
constexpr double kAgreement = 0.999;

class RegionPicker {
public:
    RegionPicker(const ShardingProblem& problem, std::uint64_t seed) : problem_(problem), random_(seed)
    {
        neighbours_.resize(problem.nodes.size());
        incident_.resize(problem.nodes.size());
        for (std::size_t e = 0; e < problem.edges.size(); ++e) {
            const ProblemEdge& edge = problem.edges[e];
            neighbours_[static_cast<std::size_t>(edge.u)].push_back(edge.v);
            neighbours_[static_cast<std::size_t>(edge.v)].push_back(edge.u);
            incident_[static_cast<std::size_t>(edge.u)].push_back(static_cast<int>(e));
            incident_[static_cast<std::size_t>(edge.v)].push_back(static_cast<int>(e));
        }
        for (std::size_t i = 0; i < problem.nodes.size(); ++i)
            if (problem.nodes[i].strategyCount() > 1)
                movable_.push_back(static_cast<int>(i));
        seen_.assign(problem.nodes.size(), 0);
    }

    [[nodiscard]] bool empty() const { return movable_.empty(); }

    // A breadth-first ball of movable nodes around a costly root, grown until its
    // internal edges hold `cells` cells; every other region starts from some of the
    // nodes alive at the root's start time (memory partners).
    std::vector<int> pick(const Assignment& x, double cells)
    {
        double used = 0;
        int root = randomMovable();
        for (int k = 1; k < kRootTournament; ++k) {
            const int other = randomMovable();
            if (localCost(x, other) > localCost(x, root))
                root = other;
        }
        ++epoch_;
        std::vector<int> region;
        auto take = [&](int node) {
            if (seen_[static_cast<std::size_t>(node)] == epoch_ || problem_.nodes[static_cast<std::size_t>(node)].strategyCount() < 2)
                return;
            seen_[static_cast<std::size_t>(node)] = epoch_;
            region.push_back(node);
            for (const int e : incident_[static_cast<std::size_t>(node)]) {
                const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(e)];
                if (seen_[static_cast<std::size_t>(edge.u == node ? edge.v : edge.u)] == epoch_)
                    used += static_cast<double>(edge.costs.size());
            }
        };
        take(root);
        const ProblemNode& r = problem_.nodes[static_cast<std::size_t>(root)];
        if (++regionCount_ % 2 == 0 && r.usesMemory()) {
            std::vector<int> alive;
            for (const int i : movable_) {
                const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(i)];
                if (n.lo <= r.lo && r.lo < n.hi)
                    alive.push_back(i);
            }
            std::shuffle(alive.begin(), alive.end(), random_);
            for (std::size_t k = 0; k < alive.size() && k < kMemoryPartners; ++k)
                take(alive[k]);
        }
        for (std::size_t head = 0; head < region.size() && used < cells; ++head) {
            std::vector<int> next = neighbours_[static_cast<std::size_t>(region[head])];
            std::shuffle(next.begin(), next.end(), random_);
            for (std::size_t k = 0; k < next.size() && used < cells; ++k)
                take(next[k]);
        }
        return region;
    }

private:
    int randomMovable() { return movable_[std::uniform_int_distribution<std::size_t>(0, movable_.size() - 1)(random_)]; }

    double localCost(const Assignment& x, int node) const
    {
        const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(node)];
        double cost = static_cast<double>(n.costs[static_cast<std::size_t>(x[static_cast<std::size_t>(node)])]);
        for (const int e : incident_[static_cast<std::size_t>(node)]) {
            const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(e)];
            const auto columns = static_cast<std::size_t>(problem_.nodes[static_cast<std::size_t>(edge.v)].strategyCount());
            cost += static_cast<double>(edge.costs[static_cast<std::size_t>(x[static_cast<std::size_t>(edge.u)]) * columns
                                                   + static_cast<std::size_t>(x[static_cast<std::size_t>(edge.v)])]);
        }
        return cost;
    }

    const ShardingProblem& problem_;
    std::mt19937_64 random_;
    std::vector<std::vector<int>> neighbours_;
    std::vector<std::vector<int>> incident_;
    std::vector<int> movable_;
    std::vector<int> seen_;
    int epoch_ = 0;
    int regionCount_ = 0;
};

}  // namespace

bool improveWithIlpRegions(const ShardingProblem& problem, Assignment& assignment, std::uint64_t seed,
                           std::chrono::steady_clock::time_point deadline, std::stop_token stop)
{
    using Clock = std::chrono::steady_clock;
    RegionPicker picker(problem, seed);
    if (picker.empty())
        return false;
    double size = kStartSize;
    bool improved = false;
    // CBC overshoots its limit where it checks no clock (copying the model into its
    // heuristics, checking a solution by an LP): seconds on big regions. Leave room for
    // the largest overshoot seen so far.
    double overshoot = 0.5;
    while (true) {
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count() - overshoot;
        if (left < 0.3 || stop.stop_requested())
            break;
        const Subproblem sub(problem, assignment, picker.pick(assignment, size));
        const auto began = Clock::now();
        const double limit = std::min(kSecondsPerRegion, left);
        const IlpOutcome outcome = solveWithIlp(sub.problem(), limit, &sub.current(), stop);
        const double took = std::chrono::duration<double>(Clock::now() - began).count();
        overshoot = std::max(overshoot, took - limit);
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

std::vector<int> disagreeingNodes(const ShardingProblem& problem, const Assignment& assignment,
                                  const std::vector<std::vector<double>>& weights)
{
    std::vector<int> nodes;
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        if (problem.nodes[i].strategyCount() > 1 && weights[i][static_cast<std::size_t>(assignment[i])] < kAgreement)
            nodes.push_back(static_cast<int>(i));
    return nodes;
}

bool improveWithRelaxation(const ShardingProblem& problem, Assignment& assignment,
                           const std::vector<std::vector<double>>& weights,
                           std::chrono::steady_clock::time_point deadline, std::stop_token stop)
{
    const std::vector<int> freeNodes = disagreeingNodes(problem, assignment, weights);
    if (freeNodes.empty())
        return false;
    const Subproblem sub(problem, assignment, freeNodes);
    const double seconds = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const IlpOutcome outcome = solveWithIlp(sub.problem(), seconds, &sub.current(), std::move(stop));
    if (!outcome.assignment)
        return false;
    const SolutionEvaluation before = evaluateSolution(sub.problem(), sub.current());
    const SolutionEvaluation after = evaluateSolution(sub.problem(), *outcome.assignment);
    if (!after.feasible || after.cost >= before.cost)
        return false;
    sub.apply(*outcome.assignment, assignment);
    return true;
}

}  // namespace tapestry
