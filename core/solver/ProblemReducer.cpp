#include "solver/ProblemReducer.h"

#include <algorithm>
#include <map>
#include <utility>

namespace tapestry {

namespace {

std::int64_t capped(std::int64_t value)
{
    return std::min(value, kCostCap);
}

// Both operands are <= kCostCap, so the sum cannot overflow.
std::int64_t add(std::int64_t a, std::int64_t b)
{
    return std::min(a + b, kCostCap);
}

// A degree-2 elimination builds an |S(j)| x |S(k)| table in |S(i)| |S(j)| |S(k)| steps.
constexpr std::int64_t kMaxFoldWork = 4'000'000;
constexpr std::int64_t kMaxFoldCells = 40'000;

}  // namespace

ProblemReducer::ProblemReducer(const ShardingProblem& problem, const std::function<bool()>& interrupted)
    : problem_(problem)
{
    nodes_.resize(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i) {
        WorkNode& node = nodes_[i];
        for (const std::int64_t cost : problem.nodes[i].costs)
            node.costs.push_back(capped(cost));
        node.usages = problem.nodes[i].usages;
        node.original.resize(node.costs.size());
        for (std::size_t s = 0; s < node.original.size(); ++s)
            node.original[s] = static_cast<int>(s);
    }
    mergeParallelEdges();
    markUsageFree();

    // Passes until nothing changes: an elimination can make a strategy dominated and a
    // removed strategy can make usages equal (so the node becomes eliminable).
    // Each step is exact on its own, so an interruption may come between any two.
    constexpr std::size_t kNodesPerCheck = 1024;
    const auto due = [&](std::size_t i) { return interrupted && i % kNodesPerCheck == 0 && interrupted(); };
    for (bool changed = true, stopped = false; changed && !stopped;) {
        changed = false;
        for (std::size_t i = 0; i < nodes_.size() && !(stopped = stopped || due(i)); ++i)
            if (nodes_[i].alive)
                changed |= eliminate(static_cast<int>(i));
        for (std::size_t i = 0; i < nodes_.size() && !(stopped = stopped || due(i)); ++i)
            if (nodes_[i].alive)
                changed |= removeDominated(static_cast<int>(i));
    }
    build();
}

// Usage only rises at interval starts, so a node whose interval holds no start where
// the largest usages of the nodes alive sum above the limit never takes part in an
// overflow, whatever any node chooses.
void ProblemReducer::markUsageFree()
{
    const std::size_t n = problem_.nodes.size();
    usageFree_.assign(n, 0);
    if (!problem_.usageLimit)
        return;
    std::vector<std::int64_t> starts;
    for (const ProblemNode& node : problem_.nodes)
        if (node.usesMemory())
            starts.push_back(node.lo);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    if (starts.empty())
        return;
    const auto rank = [&](std::int64_t t) {
        return static_cast<std::size_t>(std::lower_bound(starts.begin(), starts.end(), t) - starts.begin());
    };
    // The largest usages summed at each start: a difference array over the starts'
    // ranks (a node counts from its start's rank up to the first start at or after its end).
    std::vector<std::int64_t> peak(starts.size() + 1, 0);
    for (const ProblemNode& node : problem_.nodes)
        if (node.usesMemory()) {
            const std::int64_t most = *std::max_element(node.usages.begin(), node.usages.end());
            peak[rank(node.lo)] += most;
            peak[rank(node.hi)] -= most;
        }
    // Prefix sums give each start's total; over the limit marks it, and a node is free
    // when no marked start lies in its interval (prefix counts of the marked ones).
    std::vector<std::size_t> over(starts.size() + 1, 0);
    std::int64_t live = 0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        live += peak[k];
        over[k + 1] = over[k] + (live > *problem_.usageLimit ? 1 : 0);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const ProblemNode& node = problem_.nodes[i];
        usageFree_[i] = static_cast<char>(node.usesMemory() && over[rank(node.hi)] == over[rank(node.lo)]);
    }
}

bool ProblemReducer::memoryFree(int node) const
{
    const WorkNode& n = nodes_[static_cast<std::size_t>(node)];
    if (!problem_.usageLimit || !problem_.nodes[static_cast<std::size_t>(node)].usesMemory()
        || usageFree_[static_cast<std::size_t>(node)])
        return true;
    return std::all_of(n.usages.begin(), n.usages.end(), [&](std::int64_t u) { return u == n.usages.front(); });
}

std::int64_t ProblemReducer::edgeCost(const WorkEdge& edge, int from, int sFrom, int sOther) const
{
    if (edge.u == from)
        return edge.costs[static_cast<std::size_t>(sFrom) * nodes_[static_cast<std::size_t>(edge.v)].costs.size()
                          + static_cast<std::size_t>(sOther)];
    return edge.costs[static_cast<std::size_t>(sOther) * nodes_[static_cast<std::size_t>(edge.v)].costs.size()
                      + static_cast<std::size_t>(sFrom)];
}

int ProblemReducer::findEdge(int a, int b) const
{
    for (const int e : nodes_[static_cast<std::size_t>(a)].edges)
        if (other(edges_[static_cast<std::size_t>(e)], a) == b)
            return e;
    return -1;
}

void ProblemReducer::detach(int edge)
{
    WorkEdge& e = edges_[static_cast<std::size_t>(edge)];
    e.alive = false;
    for (const int end : {e.u, e.v}) {
        auto& list = nodes_[static_cast<std::size_t>(end)].edges;
        list.erase(std::find(list.begin(), list.end(), edge));
    }
}

void ProblemReducer::mergeParallelEdges()
{
    std::map<std::pair<int, int>, int> byPair;
    for (const ProblemEdge& edge : problem_.edges) {
        const auto key = std::minmax(edge.u, edge.v);
        const auto [it, fresh] = byPair.emplace(key, static_cast<int>(edges_.size()));
        if (fresh) {
            WorkEdge work{edge.u, edge.v, {}, true};
            work.costs.reserve(edge.costs.size());
            for (const std::int64_t cost : edge.costs)
                work.costs.push_back(capped(cost));
            edges_.push_back(std::move(work));
            nodes_[static_cast<std::size_t>(edge.u)].edges.push_back(it->second);
            nodes_[static_cast<std::size_t>(edge.v)].edges.push_back(it->second);
            continue;
        }
        WorkEdge& target = edges_[static_cast<std::size_t>(it->second)];
        const std::size_t columns = problem_.nodes[static_cast<std::size_t>(edge.v)].costs.size();
        const std::size_t rows = problem_.nodes[static_cast<std::size_t>(edge.u)].costs.size();
        for (std::size_t a = 0; a < rows; ++a)
            for (std::size_t b = 0; b < columns; ++b) {
                // The merged edge may run the other way round.
                const std::size_t cell = target.u == edge.u ? a * columns + b : b * rows + a;
                target.costs[cell] = add(target.costs[cell], capped(edge.costs[a * columns + b]));
            }
        ++stats_.mergedEdges;
    }
}

bool ProblemReducer::eliminate(int node)
{
    if (!memoryFree(node))
        return false;
    WorkNode& n = nodes_[static_cast<std::size_t>(node)];
    const auto count = n.costs.size();
    const std::size_t degree = n.edges.size();
    Elimination record;
    record.node = node;
    // Whether strategy s at `value` beats `choice` at `best`: cheaper, or as cheap and
    // smaller where only the limit's slack made the node eliminable (its plans keep the
    // memory the solver would have left them).
    const auto beats = [&](std::int64_t value, std::size_t s, std::int64_t best, std::size_t choice) {
        return value < best
               || (value == best && usageFree_[static_cast<std::size_t>(node)] && n.usages[s] < n.usages[choice]);
    };

    if (count == 1 || degree == 0) {
        // Each neighbour's cost gains the edge row at this node's (single) choice;
        // with no neighbours the best strategy is plainly the cheapest.
        std::size_t best = 0;
        for (std::size_t s = 1; s < count; ++s)
            if (beats(n.costs[s], s, n.costs[best], best))
                best = s;
        if (count > 1 && degree > 0)
            return false;
        offset_ += n.costs[best];
        for (const int e : std::vector<int>(n.edges)) {
            const WorkEdge& edge = edges_[static_cast<std::size_t>(e)];
            WorkNode& neighbour = nodes_[static_cast<std::size_t>(other(edge, node))];
            for (std::size_t s = 0; s < neighbour.costs.size(); ++s)
                neighbour.costs[s] = add(neighbour.costs[s], edgeCost(edge, node, 0, static_cast<int>(s)));
            detach(e);
        }
        record.choice = {n.original[best]};
    } else if (degree == 1) {
        const int e = n.edges.front();
        const WorkEdge& edge = edges_[static_cast<std::size_t>(e)];
        record.first = other(edge, node);
        WorkNode& neighbour = nodes_[static_cast<std::size_t>(record.first)];
        record.choice.assign(problem_.nodes[static_cast<std::size_t>(record.first)].costs.size(), -1);
        for (std::size_t t = 0; t < neighbour.costs.size(); ++t) {
            std::int64_t best = kCostCap + 1;
            int choice = 0;
            for (std::size_t s = 0; s < count; ++s) {
                const std::int64_t value = add(n.costs[s], edgeCost(edge, node, static_cast<int>(s), static_cast<int>(t)));
                if (beats(value, s, best, static_cast<std::size_t>(choice))) {
                    best = value;
                    choice = static_cast<int>(s);
                }
            }
            neighbour.costs[t] = add(neighbour.costs[t], best);
            record.choice[static_cast<std::size_t>(neighbour.original[t])] = n.original[static_cast<std::size_t>(choice)];
        }
        detach(e);
    } else if (degree == 2) {
        const int e1 = n.edges[0];
        const int e2 = n.edges[1];
        const int j = other(edges_[static_cast<std::size_t>(e1)], node);
        const int k = other(edges_[static_cast<std::size_t>(e2)], node);
        const auto sj = nodes_[static_cast<std::size_t>(j)].costs.size();
        const auto sk = nodes_[static_cast<std::size_t>(k)].costs.size();
        if (static_cast<std::int64_t>(sj * sk) > kMaxFoldCells
            || static_cast<std::int64_t>(sj * sk * count) > kMaxFoldWork)
            return false;
        record.first = j;
        record.second = k;
        record.secondCount = problem_.nodes[static_cast<std::size_t>(k)].strategyCount();
        record.choice.assign(problem_.nodes[static_cast<std::size_t>(j)].costs.size()
                                 * static_cast<std::size_t>(record.secondCount),
                             -1);
        std::vector<std::int64_t> table(sj * sk);
        const WorkEdge& a = edges_[static_cast<std::size_t>(e1)];
        const WorkEdge& b = edges_[static_cast<std::size_t>(e2)];
        for (std::size_t x = 0; x < sj; ++x)
            for (std::size_t y = 0; y < sk; ++y) {
                std::int64_t best = kCostCap + 1;
                int choice = 0;
                for (std::size_t s = 0; s < count; ++s) {
                    const std::int64_t value =
                        add(add(n.costs[s], edgeCost(a, node, static_cast<int>(s), static_cast<int>(x))),
                            edgeCost(b, node, static_cast<int>(s), static_cast<int>(y)));
                    if (beats(value, s, best, static_cast<std::size_t>(choice))) {
                        best = value;
                        choice = static_cast<int>(s);
                    }
                }
                table[x * sk + y] = best;
                const auto oj = static_cast<std::size_t>(nodes_[static_cast<std::size_t>(j)].original[x]);
                const auto ok = static_cast<std::size_t>(nodes_[static_cast<std::size_t>(k)].original[y]);
                record.choice[oj * static_cast<std::size_t>(record.secondCount) + ok] =
                    n.original[static_cast<std::size_t>(choice)];
            }
        detach(e1);
        detach(e2);
        if (const int existing = findEdge(j, k); existing >= 0) {
            WorkEdge& edge = edges_[static_cast<std::size_t>(existing)];
            for (std::size_t x = 0; x < sj; ++x)
                for (std::size_t y = 0; y < sk; ++y) {
                    const std::size_t cell = edge.u == j ? x * sk + y : y * sj + x;
                    edge.costs[cell] = add(edge.costs[cell], table[x * sk + y]);
                }
            ++stats_.mergedEdges;
        } else {
            edges_.push_back(WorkEdge{j, k, std::move(table), true});
            const int id = static_cast<int>(edges_.size()) - 1;
            nodes_[static_cast<std::size_t>(j)].edges.push_back(id);
            nodes_[static_cast<std::size_t>(k)].edges.push_back(id);
        }
    } else {
        return false;
    }
    n.alive = false;
    eliminations_.push_back(std::move(record));
    ++stats_.eliminatedNodes;
    return true;
}

bool ProblemReducer::removeDominated(int node)
{
    WorkNode& n = nodes_[static_cast<std::size_t>(node)];
    const std::size_t count = n.costs.size();
    if (count < 2)
        return false;
    const bool usageMatters = problem_.usageLimit && problem_.nodes[static_cast<std::size_t>(node)].usesMemory()
                              && !usageFree_[static_cast<std::size_t>(node)];
    // keep[a] turns false when some kept b is never worse than a (ties go to the lower
    // index, so of two identical strategies exactly one survives).
    std::vector<char> keep(count, 1);
    auto noWorse = [&](std::size_t b, std::size_t a) {
        if (n.costs[b] > n.costs[a] || (usageMatters && n.usages[b] > n.usages[a]))
            return false;
        for (const int e : n.edges) {
            const WorkEdge& edge = edges_[static_cast<std::size_t>(e)];
            const auto others = nodes_[static_cast<std::size_t>(other(edge, node))].costs.size();
            for (std::size_t t = 0; t < others; ++t)
                if (edgeCost(edge, node, static_cast<int>(b), static_cast<int>(t))
                    > edgeCost(edge, node, static_cast<int>(a), static_cast<int>(t)))
                    return false;
        }
        return true;
    };
    // Of strategies no worse than each other, the smaller usage where only the limit's
    // slack makes usage not matter (as the eliminations choose), then the lower index.
    const auto before = [&](std::size_t b, std::size_t a) {
        if (usageFree_[static_cast<std::size_t>(node)] && n.usages[b] != n.usages[a])
            return n.usages[b] < n.usages[a];
        return b < a;
    };
    bool removed = false;
    for (std::size_t a = 0; a < count; ++a)
        for (std::size_t b = 0; b < count && keep[a]; ++b)
            if (b != a && keep[b] && noWorse(b, a) && (before(b, a) || !noWorse(a, b))) {
                keep[a] = 0;
                removed = true;
            }
    if (!removed)
        return false;

    std::vector<int> index(count, -1);
    WorkNode kept;
    for (std::size_t s = 0; s < count; ++s)
        if (keep[s]) {
            index[s] = static_cast<int>(kept.costs.size());
            kept.costs.push_back(n.costs[s]);
            kept.usages.push_back(n.usages[s]);
            kept.original.push_back(n.original[s]);
        }
    stats_.removedStrategies += static_cast<int>(count - kept.costs.size());
    for (const int e : n.edges) {
        WorkEdge& edge = edges_[static_cast<std::size_t>(e)];
        const std::size_t rows = nodes_[static_cast<std::size_t>(edge.u)].costs.size();
        const std::size_t columns = nodes_[static_cast<std::size_t>(edge.v)].costs.size();
        std::vector<std::int64_t> costs;
        for (std::size_t a = 0; a < rows; ++a)
            for (std::size_t b = 0; b < columns; ++b)
                if ((edge.u == node && keep[a]) || (edge.v == node && keep[b]))
                    costs.push_back(edge.costs[a * columns + b]);
        edge.costs = std::move(costs);
    }
    n.costs = std::move(kept.costs);
    n.usages = std::move(kept.usages);
    n.original = std::move(kept.original);
    return true;
}

void ProblemReducer::build()
{
    ShardingProblem reduced;
    reduced.name = problem_.name;
    reduced.usageLimit = problem_.usageLimit;
    std::vector<int> newIndex(nodes_.size(), -1);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (!nodes_[i].alive)
            continue;
        newIndex[i] = static_cast<int>(reduced.nodes.size());
        reducedToOriginal_.push_back(static_cast<int>(i));
        const ProblemNode& source = problem_.nodes[i];
        reduced.nodes.push_back(ProblemNode{source.lo, source.hi, nodes_[i].costs, nodes_[i].usages});
    }
    // The work edges' matrices are not needed past this point (expand and restrict use
    // the nodes only): moved, not copied.
    for (WorkEdge& edge : edges_)
        if (edge.alive)
            reduced.edges.push_back(ProblemEdge{newIndex[static_cast<std::size_t>(edge.u)],
                                                newIndex[static_cast<std::size_t>(edge.v)], std::move(edge.costs)});
    // Eliminated nodes still hold memory: their fixed usage, or their largest where it
    // cannot overflow the limit.
    for (const Elimination& record : eliminations_) {
        const ProblemNode& source = problem_.nodes[static_cast<std::size_t>(record.node)];
        const std::vector<std::int64_t>& usages = nodes_[static_cast<std::size_t>(record.node)].usages;
        const std::int64_t usage = *std::max_element(usages.begin(), usages.end());
        if (problem_.usageLimit && source.usesMemory() && usage > 0) {
            reduced.nodes.push_back(ProblemNode{source.lo, source.hi, {0}, {usage}});
            reducedToOriginal_.push_back(-1);
        }
    }
    reduced_ = std::make_shared<const ShardingProblem>(std::move(reduced));
}

Assignment ProblemReducer::restrict(const Assignment& originalAssignment) const
{
    Assignment x(reduced_->nodes.size(), 0);
    for (std::size_t r = 0; r < x.size(); ++r) {
        const int node = reducedToOriginal_[r];
        if (node < 0)
            continue;
        const WorkNode& n = nodes_[static_cast<std::size_t>(node)];
        const auto kept = std::find(n.original.begin(), n.original.end(), originalAssignment[static_cast<std::size_t>(node)]);
        x[r] = kept != n.original.end()
                   ? static_cast<int>(kept - n.original.begin())
                   : static_cast<int>(std::min_element(n.costs.begin(), n.costs.end()) - n.costs.begin());
    }
    return x;
}

Assignment ProblemReducer::expand(const Assignment& reducedAssignment) const
{
    Assignment original(problem_.nodes.size(), -1);
    for (std::size_t r = 0; r < reducedAssignment.size(); ++r) {
        const int node = reducedToOriginal_[r];
        if (node >= 0)
            original[static_cast<std::size_t>(node)] =
                nodes_[static_cast<std::size_t>(node)].original[static_cast<std::size_t>(reducedAssignment[r])];
    }
    // Later eliminations only depend on nodes that outlived them.
    for (auto it = eliminations_.rbegin(); it != eliminations_.rend(); ++it) {
        std::size_t cell = 0;
        if (it->first >= 0)
            cell = static_cast<std::size_t>(original[static_cast<std::size_t>(it->first)]);
        if (it->second >= 0)
            cell = cell * static_cast<std::size_t>(it->secondCount)
                   + static_cast<std::size_t>(original[static_cast<std::size_t>(it->second)]);
        original[static_cast<std::size_t>(it->node)] = it->choice[cell];
    }
    return original;
}

}  // namespace tapestry
