#include "solver/StartPlan.h"

#include "solver/MemoryRepair.h"
#include "solver/ProblemReducer.h"
#include "solver/SolutionEvaluator.h"
#include "solver/TimeHorizon.h"
#include "solver/UsageTree.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

namespace tapestry {

namespace {

// How many of a node's preferred strategies the greedy tries before it takes one whose
// propagation would rule out some node's every strategy.
constexpr int kTries = 4;

// The greedy over edges (startAssignment's third plan). Domains are the
// strategies still possible per node; every removal is kept on a trail so that a tried
// choice can be taken back.
class CompatibleGreedy {
public:
    explicit CompatibleGreedy(const ShardingProblem& problem)
        : problem_(problem), limited_(problem.usageLimit.has_value()), limit_(problem.usageLimit.value_or(0)),
          horizon_(timeHorizon(problem)), usage_(limited_ ? horizon_ : 1)
    {
        const std::size_t n = problem.nodes.size();
        offsets_.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i)
            offsets_[i + 1] = offsets_[i] + problem.nodes[i].costs.size();
        std::vector<std::size_t> degree(n + 1, 0);
        for (const ProblemEdge& edge : problem.edges) {
            ++degree[static_cast<std::size_t>(edge.u)];
            ++degree[static_cast<std::size_t>(edge.v)];
        }
        arcStart_.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i)
            arcStart_[i + 1] = arcStart_[i] + degree[i];
        arcs_.resize(arcStart_.back());
        std::vector<std::size_t> fill(arcStart_.begin(), arcStart_.end() - 1);
        for (std::size_t e = 0; e < problem.edges.size(); ++e) {
            const ProblemEdge& edge = problem.edges[e];
            arcs_[fill[static_cast<std::size_t>(edge.u)]++] = Arc{edge.v, static_cast<int>(e), true};
            arcs_[fill[static_cast<std::size_t>(edge.v)]++] = Arc{edge.u, static_cast<int>(e), false};
        }
        order_ = breadthFirstOrder();
    }

    [[nodiscard]] Assignment run()
    {
        const std::size_t n = problem_.nodes.size();
        alive_.assign(offsets_.back(), 1);
        count_.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const ProblemNode& node = problem_.nodes[i];
            const auto allowed = std::count_if(node.costs.begin(), node.costs.end(),
                                               [](std::int64_t c) { return c < kCostCap; });
            for (int s = 0; s < node.strategyCount(); ++s)
                alive_[offsets_[i] + static_cast<std::size_t>(s)] =
                    allowed == 0 || node.costs[static_cast<std::size_t>(s)] < kCostCap;
            count_[i] = allowed == 0 ? node.strategyCount() : static_cast<int>(allowed);
        }
        usage_ = UsageTree(limited_ ? horizon_ : 1);
        least_.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            setLeast(static_cast<int>(i));
        trail_.clear();
        queued_.assign(n, 0);
        chosen_.assign(n, -1);
        for (std::size_t i = 0; i < n; ++i)
            enqueue(static_cast<int>(i));
        propagate(false);
        trail_.clear();

        // (forbidden cells to chosen neighbours, cost with them, usage, strategy)
        std::vector<std::tuple<std::int64_t, CostSum, std::int64_t, int>> candidates;
        for (const int i : order_) {
            candidates.clear();
            const ProblemNode& node = problem_.nodes[static_cast<std::size_t>(i)];
            for (int s = 0; s < node.strategyCount(); ++s) {
                if (!alive(i, s))
                    continue;
                std::int64_t forbidden = node.costs[static_cast<std::size_t>(s)] >= kCostCap ? 1 : 0;
                CostSum cost = node.costs[static_cast<std::size_t>(s)];
                for (std::size_t a = arcStart_[static_cast<std::size_t>(i)]; a < arcStart_[static_cast<std::size_t>(i) + 1]; ++a) {
                    const int other = chosen_[static_cast<std::size_t>(arcs_[a].to)];
                    if (other < 0)
                        continue;
                    const std::int64_t c = edgeCost(arcs_[a], s, other);
                    forbidden += c >= kCostCap ? 1 : 0;
                    cost += c;
                }
                candidates.emplace_back(forbidden, cost, usageOf(i, s), s);
            }
            std::sort(candidates.begin(), candidates.end());
            int pick = -1;
            for (std::size_t k = 0, tries = 0; k < candidates.size() && tries < kTries && pick < 0; ++k) {
                const int s = std::get<3>(candidates[k]);
                if (!mayFit(i, s))
                    continue;
                ++tries;
                const std::size_t mark = trail_.size();
                fix(i, s);
                if (propagate(true) && fits())
                    pick = s;
                else
                    undoTo(mark);
            }
            if (pick < 0) {
                // The smallest, then the cheapest, of those left.
                const auto smallest = std::min_element(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
                    return std::tuple(std::get<0>(a), std::get<2>(a), std::get<1>(a))
                           < std::tuple(std::get<0>(b), std::get<2>(b), std::get<1>(b));
                });
                pick = std::get<3>(*smallest);
                fix(i, pick);
                propagate(false);
            }
            chosen_[static_cast<std::size_t>(i)] = pick;
            trail_.clear();
        }
        return Assignment(chosen_.begin(), chosen_.end());
    }

private:
    struct Arc {
        int to;
        int edge;
        bool fromIsU;
    };

    [[nodiscard]] bool alive(int node, int s) const
    {
        return alive_[offsets_[static_cast<std::size_t>(node)] + static_cast<std::size_t>(s)] != 0;
    }

    // The edge's cost when the arc's tail takes sFrom and its head sTo.
    [[nodiscard]] std::int64_t edgeCost(const Arc& arc, int sFrom, int sTo) const
    {
        const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(arc.edge)];
        const std::size_t columns = problem_.nodes[static_cast<std::size_t>(edge.v)].costs.size();
        return arc.fromIsU ? edge.costs[static_cast<std::size_t>(sFrom) * columns + static_cast<std::size_t>(sTo)]
                           : edge.costs[static_cast<std::size_t>(sTo) * columns + static_cast<std::size_t>(sFrom)];
    }

    // The usage that counts against the limit (none for a node alive nowhere).
    [[nodiscard]] std::int64_t usageOf(int node, int s) const
    {
        const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(node)];
        return limited_ && n.usesMemory() ? n.usages[static_cast<std::size_t>(s)] : 0;
    }

    // The node's smallest usage among its remaining strategies, counted in usage_.
    void setLeast(int node)
    {
        std::int64_t least = std::numeric_limits<std::int64_t>::max();
        for (int s = 0; s < problem_.nodes[static_cast<std::size_t>(node)].strategyCount(); ++s)
            if (alive(node, s))
                least = std::min(least, usageOf(node, s));
        const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(node)];
        usage_.add(n.lo, n.hi, least - least_[static_cast<std::size_t>(node)]);
        least_[static_cast<std::size_t>(node)] = least;
    }

    // Whether the smallest usages left fit the limit everywhere.
    [[nodiscard]] bool fits() const { return !limited_ || usage_.max(0, horizon_) <= limit_; }

    // Whether `node` taking `s` can fit, the others taking their smallest usages left.
    [[nodiscard]] bool mayFit(int node, int s) const
    {
        const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(node)];
        return !limited_ || !n.usesMemory()
               || usage_.max(n.lo, n.hi) + usageOf(node, s) - least_[static_cast<std::size_t>(node)] <= limit_;
    }

    void remove(int node, int s)
    {
        alive_[offsets_[static_cast<std::size_t>(node)] + static_cast<std::size_t>(s)] = 0;
        --count_[static_cast<std::size_t>(node)];
        trail_.emplace_back(node, s);
        if (usageOf(node, s) == least_[static_cast<std::size_t>(node)])
            setLeast(node);
    }

    void undoTo(std::size_t mark)
    {
        while (trail_.size() > mark) {
            const auto [node, s] = trail_.back();
            trail_.pop_back();
            alive_[offsets_[static_cast<std::size_t>(node)] + static_cast<std::size_t>(s)] = 1;
            ++count_[static_cast<std::size_t>(node)];
            if (usageOf(node, s) < least_[static_cast<std::size_t>(node)])
                setLeast(node);
        }
        for (const int node : queue_)
            queued_[static_cast<std::size_t>(node)] = 0;
        queue_.clear();
    }

    void enqueue(int node)
    {
        if (!queued_[static_cast<std::size_t>(node)]) {
            queued_[static_cast<std::size_t>(node)] = 1;
            queue_.push_back(node);
        }
    }

    // Leaves `node` only `s` (one of its remaining strategies).
    void fix(int node, int s)
    {
        for (int t = 0; t < problem_.nodes[static_cast<std::size_t>(node)].strategyCount(); ++t)
            if (t != s && alive(node, t))
                remove(node, t);
        enqueue(node);
    }

    // Arc consistency from the queued nodes: a strategy without an allowed partner among
    // a neighbour's remaining strategies goes. Where that would leave a node nothing it
    // keeps what it has: then with `strict` the propagation stops and returns false,
    // otherwise it goes on past that node.
    bool propagate(bool strict)
    {
        std::vector<int> dropped;
        while (!queue_.empty()) {
            const int from = queue_.front();
            queue_.pop_front();
            queued_[static_cast<std::size_t>(from)] = 0;
            for (std::size_t a = arcStart_[static_cast<std::size_t>(from)]; a < arcStart_[static_cast<std::size_t>(from) + 1]; ++a) {
                const Arc& arc = arcs_[a];
                const Arc back{from, arc.edge, !arc.fromIsU};
                const int node = arc.to;
                const int strategies = problem_.nodes[static_cast<std::size_t>(node)].strategyCount();
                const int partners = problem_.nodes[static_cast<std::size_t>(from)].strategyCount();
                dropped.clear();
                for (int s = 0; s < strategies; ++s) {
                    if (!alive(node, s))
                        continue;
                    bool supported = false;
                    for (int t = 0; t < partners && !supported; ++t)
                        supported = alive(from, t) && edgeCost(back, s, t) < kCostCap;
                    if (!supported)
                        dropped.push_back(s);
                }
                if (dropped.empty())
                    continue;
                if (static_cast<int>(dropped.size()) == count_[static_cast<std::size_t>(node)]) {
                    if (strict) {
                        for (const int q : queue_)
                            queued_[static_cast<std::size_t>(q)] = 0;
                        queue_.clear();
                        return false;
                    }
                    continue;
                }
                for (const int s : dropped)
                    remove(node, s);
                enqueue(node);
            }
        }
        return true;
    }

    // Every node once, each component from its node of most edges outwards, so that
    // most nodes are chosen next to one already chosen.
    [[nodiscard]] std::vector<int> breadthFirstOrder() const
    {
        const std::size_t n = problem_.nodes.size();
        std::vector<int> byDegree(n);
        for (std::size_t i = 0; i < n; ++i)
            byDegree[i] = static_cast<int>(i);
        std::stable_sort(byDegree.begin(), byDegree.end(), [&](int a, int b) {
            return arcStart_[static_cast<std::size_t>(a) + 1] - arcStart_[static_cast<std::size_t>(a)]
                   > arcStart_[static_cast<std::size_t>(b) + 1] - arcStart_[static_cast<std::size_t>(b)];
        });
        std::vector<int> order;
        order.reserve(n);
        std::vector<char> seen(n, 0);
        for (const int root : byDegree) {
            if (seen[static_cast<std::size_t>(root)])
                continue;
            seen[static_cast<std::size_t>(root)] = 1;
            std::size_t next = order.size();
            order.push_back(root);
            while (next < order.size()) {
                const auto i = static_cast<std::size_t>(order[next++]);
                for (std::size_t a = arcStart_[i]; a < arcStart_[i + 1]; ++a)
                    if (!seen[static_cast<std::size_t>(arcs_[a].to)]) {
                        seen[static_cast<std::size_t>(arcs_[a].to)] = 1;
                        order.push_back(arcs_[a].to);
                    }
            }
        }
        return order;
    }

    const ShardingProblem& problem_;
    const bool limited_;
    const std::int64_t limit_;
    const std::int64_t horizon_;
    // Per time point, the sum of the smallest usages left (least_ per node).
    UsageTree usage_;
    std::vector<std::int64_t> least_;
    std::vector<std::size_t> offsets_;
    std::vector<std::size_t> arcStart_;
    std::vector<Arc> arcs_;
    std::vector<int> order_;
    std::vector<char> alive_;
    std::vector<int> count_;
    std::vector<std::pair<int, int>> trail_;
    std::deque<int> queue_;
    std::vector<char> queued_;
    std::vector<int> chosen_;
};

}  // namespace

Assignment startAssignment(const ShardingProblem& problem)
{
    Assignment cheapest(problem.nodes.size());
    Assignment smallest(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        const ProblemNode& node = problem.nodes[i];
        const auto key = [&](int s) {
            const auto k = static_cast<std::size_t>(s);
            return std::tuple(node.costs[k] >= kCostCap, node.usages[k], node.costs[k]);
        };
        int c = 0;
        int u = 0;
        for (int s = 1; s < node.strategyCount(); ++s) {
            if (node.costs[static_cast<std::size_t>(s)] < node.costs[static_cast<std::size_t>(c)])
                c = s;
            if (key(s) < key(u))
                u = s;
        }
        cheapest[i] = c;
        smallest[i] = u;
    }
    Assignment best = smallest;
    CostSum bestCost = evaluateSolution(problem, smallest).cost;
    for (Assignment candidate : {cheapest, repairMemory(problem, CompatibleGreedy(problem).run())}) {
        const SolutionEvaluation e = evaluateSolution(problem, candidate);
        if (e.feasible && e.cost < bestCost) {
            best = std::move(candidate);
            bestCost = e.cost;
        }
    }
    return best;
}

}  // namespace tapestry
