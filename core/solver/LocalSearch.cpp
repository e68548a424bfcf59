#include "solver/LocalSearch.h"

#include "solver/ProblemReducer.h"
#include "solver/TimeHorizon.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tapestry {

namespace {

// A tree move costs about the sum over its edges of |S(parent)| |S(child)|; bounded so
// that one move stays well under a millisecond on the contest problems.
constexpr std::int64_t kMaxTreeWork = 150'000;
constexpr int kSizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
// A move along forced edges may take a whole group (a hub and its 1,652 neighbours of
// nine strategies each is 134k steps); such moves get at most this share of the work
// of the others, so that large groups cannot slow the search down.
constexpr std::int64_t kMaxForcedTreeWork = 3'000'000;
constexpr double kForcedWorkShare = 0.25;

// At most one allowed (below kCostCap) cell in every row and every column.
bool forcesPartner(const ProblemEdge& edge, std::size_t rows, std::size_t columns)
{
    std::vector<int> perColumn(columns, 0);
    for (std::size_t a = 0; a < rows; ++a) {
        int perRow = 0;
        for (std::size_t b = 0; b < columns; ++b)
            if (edge.costs[a * columns + b] < kCostCap) {
                if (++perRow > 1 || ++perColumn[b] > 1)
                    return false;
            }
    }
    return true;
}

}  // namespace

LocalSearch::LocalSearch(const ShardingProblem& problem, const Assignment& start, std::uint64_t seed,
                         bool enforceLimit)
    : problem_(problem),
      nodeCount_(static_cast<int>(problem.nodes.size())),
      limited_(problem.usageLimit.has_value()),
      enforce_(enforceLimit),
      limit_(problem.usageLimit.value_or(0)),
      usageTree_(limited_ ? timeHorizon(problem) : 1),
      random_(seed)
{
    offsets_.resize(static_cast<std::size_t>(nodeCount_) + 1);
    for (int i = 0; i < nodeCount_; ++i) {
        const ProblemNode& node = problem.nodes[static_cast<std::size_t>(i)];
        strategies_.push_back(node.strategyCount());
        offsets_[static_cast<std::size_t>(i)] = costs_.size();
        costs_.insert(costs_.end(), node.costs.begin(), node.costs.end());
        // Usage outside the limit's reach is irrelevant; zero keeps the DP simple.
        for (const std::int64_t u : node.usages)
            usages_.push_back(limited_ && node.usesMemory() ? u : 0);
        if (node.strategyCount() > 1)
            movable_.push_back(i);
    }
    offsets_.back() = costs_.size();
    std::vector<std::size_t> degree(static_cast<std::size_t>(nodeCount_) + 1, 0);
    for (const ProblemEdge& edge : problem.edges) {
        ++degree[static_cast<std::size_t>(edge.u)];
        ++degree[static_cast<std::size_t>(edge.v)];
    }
    arcStart_.assign(static_cast<std::size_t>(nodeCount_) + 1, 0);
    for (int i = 0; i < nodeCount_; ++i)
        arcStart_[static_cast<std::size_t>(i) + 1] = arcStart_[static_cast<std::size_t>(i)] + degree[static_cast<std::size_t>(i)];
    arcs_.resize(arcStart_.back());
    std::vector<std::size_t> fill(arcStart_.begin(), arcStart_.end() - 1);
    std::vector<char> forcedNode(static_cast<std::size_t>(nodeCount_), 0);
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        const ProblemEdge& edge = problem.edges[e];
        const auto u = static_cast<std::size_t>(edge.u);
        const auto v = static_cast<std::size_t>(edge.v);
        const bool forced = strategies_[u] > 1 && strategies_[v] > 1
                            && forcesPartner(edge, static_cast<std::size_t>(strategies_[u]),
                                             static_cast<std::size_t>(strategies_[v]));
        forcedNode[u] |= static_cast<char>(forced);
        forcedNode[v] |= static_cast<char>(forced);
        arcs_[fill[u]++] = Arc{edge.v, static_cast<int>(e), true, forced};
        arcs_[fill[v]++] = Arc{edge.u, static_cast<int>(e), false, forced};
    }
    for (int i = 0; i < nodeCount_; ++i)
        if (forcedNode[static_cast<std::size_t>(i)])
            forcedRoots_.push_back(i);
    penalties_.assign(static_cast<std::size_t>(limited_ ? timeHorizon(problem) : 1) + 1, 0.0);
    parent_.assign(static_cast<std::size_t>(nodeCount_), -1);
    parentArc_.assign(static_cast<std::size_t>(nodeCount_), -1);
    mark_.assign(static_cast<std::size_t>(nodeCount_), 0);
    valueOffset_.assign(static_cast<std::size_t>(nodeCount_), 0);
    choiceOffset_.assign(static_cast<std::size_t>(nodeCount_), 0);
    proposal_.assign(static_cast<std::size_t>(nodeCount_), 0);

    x_ = start;
    for (int i = 0; i < nodeCount_; ++i) {
        const ProblemNode& node = problem.nodes[static_cast<std::size_t>(i)];
        if (limited_)
            usageTree_.add(node.lo, node.hi, usage(i, x_[static_cast<std::size_t>(i)]));
    }
    cost_ = totalCost(x_);
    best_ = x_;
    bestCost_ = cost_;
}

std::int64_t LocalSearch::edgeCost(const Arc& arc, int sFrom, int sTo) const
{
    const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(arc.edge)];
    const auto columns = static_cast<std::size_t>(strategies_[static_cast<std::size_t>(edge.v)]);
    return arc.fromIsU ? edge.costs[static_cast<std::size_t>(sFrom) * columns + static_cast<std::size_t>(sTo)]
                       : edge.costs[static_cast<std::size_t>(sTo) * columns + static_cast<std::size_t>(sFrom)];
}

CostSum LocalSearch::totalCost(const Assignment& x) const
{
    CostSum total = 0;
    for (int i = 0; i < nodeCount_; ++i)
        total += nodeCost(i, x[static_cast<std::size_t>(i)]);
    for (const ProblemEdge& edge : problem_.edges) {
        const auto columns = static_cast<std::size_t>(strategies_[static_cast<std::size_t>(edge.v)]);
        total += edge.costs[static_cast<std::size_t>(x[static_cast<std::size_t>(edge.u)]) * columns
                            + static_cast<std::size_t>(x[static_cast<std::size_t>(edge.v)])];
    }
    return total;
}

double LocalSearch::penaltyRate(int node) const
{
    if (!enforce_ || !limited_)
        return 0.0;
    const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(node)];
    auto prefix = [&](std::int64_t end) {  // sum of multipliers at times < end
        double sum = 0;
        for (auto k = static_cast<std::size_t>(end); k > 0; k &= k - 1)
            sum += penalties_[k];
        return sum;
    };
    return n.usesMemory() ? (prefix(n.hi) - prefix(n.lo)) * penaltyScale_ : 0.0;
}

void LocalSearch::addPenalty(std::int64_t time, double amount)
{
    for (auto k = static_cast<std::size_t>(time) + 1; k < penalties_.size(); k += k & (~k + 1))
        penalties_[k] += amount / penaltyScale_;
}

void LocalSearch::decayPenalties()
{
    penaltyScale_ *= 0.97;
    if (penaltyScale_ < 1e-100) {
        for (double& p : penalties_)
            p *= penaltyScale_;
        penaltyScale_ = 1.0;
    }
}

void LocalSearch::setStrategy(int node, int s)
{
    const auto i = static_cast<std::size_t>(node);
    if (limited_) {
        const ProblemNode& n = problem_.nodes[i];
        usageTree_.add(n.lo, n.hi, usage(node, s) - usage(node, x_[i]));
    }
    x_[i] = s;
}

void LocalSearch::restartFrom(const Assignment& assignment)
{
    for (int i = 0; i < nodeCount_; ++i)
        setStrategy(i, assignment[static_cast<std::size_t>(i)]);
    cost_ = totalCost(x_);
    if (cost_ < bestCost_) {
        best_ = x_;
        bestCost_ = cost_;
    }
    movesSinceBest_ = 0;
}

std::int64_t LocalSearch::growTree(int root, int size, bool forcedOnly)
{
    // Randomized BFS that admits a node only when exactly one of its neighbours is
    // already in: the chosen nodes then induce a tree, so the DP below is exact.
    ++markEpoch_;
    tree_.clear();
    tree_.push_back(root);
    mark_[static_cast<std::size_t>(root)] = markEpoch_;
    parent_[static_cast<std::size_t>(root)] = -1;
    std::int64_t work = 0;
    std::vector<std::pair<int, int>> frontier;  // (node, arc from its parent)
    auto offer = [&](int from) {
        for (std::size_t a = arcStart_[static_cast<std::size_t>(from)]; a < arcStart_[static_cast<std::size_t>(from) + 1]; ++a)
            if (mark_[static_cast<std::size_t>(arcs_[a].to)] != markEpoch_ && strategies_[static_cast<std::size_t>(arcs_[a].to)] > 1
                && (arcs_[a].forced || !forcedOnly))
                frontier.emplace_back(arcs_[a].to, static_cast<int>(a));
    };
    offer(root);
    while (static_cast<int>(tree_.size()) < size && !frontier.empty()) {
        const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, frontier.size() - 1)(random_);
        const auto [node, arc] = frontier[pick];
        frontier[pick] = frontier.back();
        frontier.pop_back();
        const auto n = static_cast<std::size_t>(node);
        if (mark_[n] == markEpoch_)
            continue;
        int inside = 0;
        for (std::size_t a = arcStart_[n]; a < arcStart_[n + 1] && inside < 2; ++a)
            inside += mark_[static_cast<std::size_t>(arcs_[a].to)] == markEpoch_ ? 1 : 0;
        if (inside != 1)
            continue;
        // The frontier arc runs parent -> node; the parent owns the arc range holding it.
        const int parentNode =
            static_cast<int>(std::upper_bound(arcStart_.begin(), arcStart_.end(), static_cast<std::size_t>(arc))
                             - arcStart_.begin())
            - 1;
        const std::int64_t extra = static_cast<std::int64_t>(strategies_[n]) * strategies_[static_cast<std::size_t>(parentNode)];
        if (work + extra > (forcedOnly ? kMaxForcedTreeWork : kMaxTreeWork))
            continue;
        work += extra;
        mark_[n] = markEpoch_;
        parent_[n] = parentNode;
        parentArc_[n] = arc;
        tree_.push_back(node);
        offer(node);
    }
    return work;
}

bool LocalSearch::move(double noise)
{
    const bool forced = enforce_ && !forcedRoots_.empty() && static_cast<double>(forcedWork_) <= kForcedWorkShare * static_cast<double>(plainWork_);
    const std::vector<int>& roots = forced ? forcedRoots_ : movable_;
    const int root = roots[std::uniform_int_distribution<std::size_t>(0, roots.size() - 1)(random_)];
    const int size = forced ? nodeCount_ : kSizes[std::uniform_int_distribution<std::size_t>(0, std::size(kSizes) - 1)(random_)];
    // Every move counts at least one step, so that plain moves on one-strategy
    // neighbourhoods still earn forced ones.
    (forced ? forcedWork_ : plainWork_) += 1 + growTree(root, size, forced);

    // Unary terms: own cost, edges to fixed neighbours, the memory multipliers.
    std::size_t valueSize = 0;
    std::size_t choiceSize = 0;
    for (const int b : tree_) {
        valueOffset_[static_cast<std::size_t>(b)] = valueSize;
        valueSize += static_cast<std::size_t>(strategies_[static_cast<std::size_t>(b)]);
        if (parent_[static_cast<std::size_t>(b)] >= 0) {
            choiceOffset_[static_cast<std::size_t>(b)] = choiceSize;
            choiceSize += static_cast<std::size_t>(strategies_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(b)])]);
        }
    }
    values_.assign(valueSize, 0.0);
    choices_.assign(choiceSize, 0);
    std::uniform_real_distribution<double> jitter(1.0 - noise, 1.0 + noise);
    for (const int b : tree_) {
        const auto bi = static_cast<std::size_t>(b);
        const double rate = penaltyRate(b);
        double* value = values_.data() + valueOffset_[bi];
        for (int s = 0; s < strategies_[bi]; ++s)
            value[s] = static_cast<double>(nodeCost(b, s)) + rate * static_cast<double>(usage(b, s));
        for (std::size_t a = arcStart_[bi]; a < arcStart_[bi + 1]; ++a) {
            const Arc& arc = arcs_[a];
            if (mark_[static_cast<std::size_t>(arc.to)] == markEpoch_)
                continue;
            const int other = x_[static_cast<std::size_t>(arc.to)];
            for (int s = 0; s < strategies_[bi]; ++s)
                value[s] += static_cast<double>(edgeCost(arc, s, other));
        }
        if (noise > 0)
            for (int s = 0; s < strategies_[bi]; ++s)
                value[s] *= jitter(random_);
    }
    // Leaves up: fold each child into its parent.
    for (auto it = tree_.rbegin(); it != tree_.rend() && *it != tree_.front(); ++it) {
        const auto c = static_cast<std::size_t>(*it);
        const int p = parent_[c];
        const Arc& arc = arcs_[static_cast<std::size_t>(parentArc_[c])];  // p -> c
        const double* child = values_.data() + valueOffset_[c];
        double* parentValue = values_.data() + valueOffset_[static_cast<std::size_t>(p)];
        int* choice = choices_.data() + choiceOffset_[c];
        for (int sp = 0; sp < strategies_[static_cast<std::size_t>(p)]; ++sp) {
            double best = std::numeric_limits<double>::infinity();
            int bestS = 0;
            for (int sc = 0; sc < strategies_[c]; ++sc) {
                const double v = child[sc] + static_cast<double>(edgeCost(arc, sp, sc));
                if (v < best) {
                    best = v;
                    bestS = sc;
                }
            }
            parentValue[sp] += best;
            choice[sp] = bestS;
        }
    }
    const auto r = static_cast<std::size_t>(tree_.front());
    const double* rootValue = values_.data() + valueOffset_[r];
    proposal_[r] = static_cast<int>(std::min_element(rootValue, rootValue + strategies_[r]) - rootValue);
    for (std::size_t k = 1; k < tree_.size(); ++k) {
        const auto c = static_cast<std::size_t>(tree_[k]);
        proposal_[c] = choices_[choiceOffset_[c] + static_cast<std::size_t>(proposal_[static_cast<std::size_t>(parent_[c])])];
    }

    // Exact cost change; each edge counted once (from its endpoint earlier in tree_).
    CostSum delta = 0;
    double penaltyDelta = 0;
    bool changed = false;
    for (const int b : tree_) {
        const auto bi = static_cast<std::size_t>(b);
        const int from = x_[bi];
        const int to = proposal_[bi];
        if (from == to)
            continue;
        changed = true;
        delta += nodeCost(b, to) - nodeCost(b, from);
        penaltyDelta += penaltyRate(b) * static_cast<double>(usage(b, to) - usage(b, from));
    }
    if (!changed)
        return false;
    ++markEpoch_;  // now marks "already counted" nodes
    for (const int b : tree_) {
        const auto bi = static_cast<std::size_t>(b);
        for (std::size_t a = arcStart_[bi]; a < arcStart_[bi + 1]; ++a) {
            const Arc& arc = arcs_[a];
            const auto o = static_cast<std::size_t>(arc.to);
            if (mark_[o] == markEpoch_)
                continue;
            const bool otherInTree = mark_[o] == markEpoch_ - 1;
            const int oldOther = x_[o];
            const int newOther = otherInTree ? proposal_[o] : oldOther;
            delta += edgeCost(arc, proposal_[bi], newOther) - edgeCost(arc, x_[bi], oldOther);
        }
        mark_[bi] = markEpoch_;
    }
    if (noise == 0 && static_cast<double>(delta) + penaltyDelta > 0)
        return false;

    // Apply, then check memory where usage grew.
    std::vector<int> old;
    old.reserve(tree_.size());
    for (const int b : tree_) {
        old.push_back(x_[static_cast<std::size_t>(b)]);
        setStrategy(b, proposal_[static_cast<std::size_t>(b)]);
    }
    if (limited_ && enforce_) {
        for (std::size_t k = 0; k < tree_.size(); ++k) {
            const int b = tree_[k];
            const ProblemNode& n = problem_.nodes[static_cast<std::size_t>(b)];
            if (usage(b, x_[static_cast<std::size_t>(b)]) <= usage(b, old[k]) || !n.usesMemory())
                continue;
            if (usageTree_.max(n.lo, n.hi) <= limit_)
                continue;
            // Overloaded: raise the multiplier at the worst time point just enough that
            // this move's gain would be paid for by its extra usage there.
            const std::int64_t t = usageTree_.argMax(n.lo, n.hi);
            std::int64_t extra = 0;
            for (std::size_t m = 0; m < tree_.size(); ++m) {
                const ProblemNode& nm = problem_.nodes[static_cast<std::size_t>(tree_[m])];
                if (nm.lo <= t && t < nm.hi)
                    extra += usage(tree_[m], x_[static_cast<std::size_t>(tree_[m])]) - usage(tree_[m], old[m]);
            }
            const double gain = -(static_cast<double>(delta) + penaltyDelta);
            if (extra > 0 && gain > 0)
                addPenalty(t, 1.05 * gain / static_cast<double>(extra));
            for (std::size_t m = 0; m < tree_.size(); ++m)
                setStrategy(tree_[m], old[m]);
            return false;
        }
    }
    cost_ += delta;
    if (cost_ < bestCost_ && enforce_) {
        bestCost_ = cost_;
        best_ = x_;
        movesSinceBest_ = 0;
    }
    return true;
}

void LocalSearch::run(std::int64_t moves)
{
    if (movable_.empty())
        return;
    for (std::int64_t k = 0; k < moves; ++k) {
        ++moveCount_;
        ++movesSinceBest_;
        // Mostly greedy moves; now and then a noisy one to leave a local optimum, and
        // back to the best assignment when the walk has strayed too long.
        const bool noisy = std::uniform_int_distribution<int>(0, 49)(random_) == 0;
        move(noisy ? 0.3 : 0.0);
        if (moveCount_ % 2000 == 0)
            decayPenalties();
        if (enforce_ && movesSinceBest_ > 20000 && cost_ > bestCost_) {
            restartFrom(best_);
        }
    }
}

}  // namespace tapestry
