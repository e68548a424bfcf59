#include "iopddl/FamilyProblem.h"

#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace tapestry {

namespace {

constexpr std::int64_t kForbidden = 1'000'000'000'000'000'000;
// Tensor ranks 0-4 and their weights (scalars have one strategy; rank r on a k-axis
// mesh up to (r + 1)^k: 4, 9, 16, 25 on 2-D meshes, as in the public problems).
constexpr std::array<double, 5> kRankWeights{0.08, 0.3, 0.35, 0.17, 0.1};
// Operations that keep their input's shape (elementwise), and of those the share whose
// edge forbids any change of layout.
constexpr double kElementwiseShare = 0.35;
constexpr double kMustMatchShare = 0.3;
constexpr double kSecondInputShare = 0.3;
constexpr double kNoMemoryShare = 0.08;
// Ordinary edges forbid this share of their changing cells where the family has
// infinity eliminations (the public problems: 0-3 %).
constexpr double kForbiddenCellShare = 0.02;

// Per mesh axis: the tensor dimension it splits, or -1 (replicated along it).
using Sharding = std::vector<int>;

struct Tensor {
    std::vector<int> dimLog2;
    double bytes = 0;
    std::vector<Sharding> shardings;
};

struct Node {
    int position = 0;
    int tensor = 0;  // index into the tensors
    int reference = 0;
};

int shardCount(const std::vector<int>& mesh, const Sharding& sharding)
{
    int shards = 1;
    for (std::size_t k = 0; k < mesh.size(); ++k)
        if (sharding[k] >= 0)
            shards *= mesh[k];
    return shards;
}

// Every mapping of mesh axes to dimensions whose axes' product divides the dimension,
// replicated first; at most `most` of them (the replicated one and a random sample).
std::vector<Sharding> shardingsOf(const std::vector<int>& mesh, const std::vector<int>& dimLog2, int most,
                                  std::mt19937_64& random)
{
    const int rank = static_cast<int>(dimLog2.size());
    std::vector<Sharding> all;
    Sharding current(mesh.size(), -1);
    const auto visit = [&](const auto& self, std::size_t axis) -> void {
        if (axis == mesh.size()) {
            std::vector<int> used(static_cast<std::size_t>(rank), 0);
            for (std::size_t k = 0; k < mesh.size(); ++k)
                if (current[k] >= 0)
                    used[static_cast<std::size_t>(current[k])] += std::countr_zero(static_cast<unsigned>(mesh[k]));
            for (int d = 0; d < rank; ++d)
                if (used[static_cast<std::size_t>(d)] > dimLog2[static_cast<std::size_t>(d)])
                    return;
            all.push_back(current);
            return;
        }
        for (int d = -1; d < rank; ++d) {
            current[axis] = d;
            self(self, axis + 1);
        }
    };
    visit(visit, 0);
    if (static_cast<int>(all.size()) > most) {
        std::shuffle(all.begin() + 1, all.end(), random);
        all.resize(static_cast<std::size_t>(most));
        std::sort(all.begin() + 1, all.end());
    }
    return all;
}

// A family problem before its ids are shuffled: the planted plan (each operation's
// smallest allowed usage, each view its tensor's strategy) and, per node, a
// representative of its must-match group (nodes tied by edges that forbid all but the
// diagonal, so they take one strategy together), with the random engine to go on with.
struct Draft {
    ShardingProblem problem;
    Assignment planted;
    std::vector<int> group;
    std::mt19937_64 random;
};

int representative(std::vector<int>& group, int node)
{
    while (group[static_cast<std::size_t>(node)] != node)
        node = group[static_cast<std::size_t>(node)] = group[static_cast<std::size_t>(group[static_cast<std::size_t>(node)])];
    return node;
}

}  // namespace

const std::vector<ContestFamily>& contestFamilies()
{
    // name, model, mesh, nodes, views, cross-cuts, training, forbidden strategies,
    // compute, parameters, shuffled ids, limit tightness, seconds, most strategies
    static const std::vector<ContestFamily> families = {
        {"gns-2d-35k", "GNS", {4, 8}, 34'932, 0.7, 0.6, true, 0.03, 0.4, 0.03, true, 0.05, 60, 40},
        {"gns-3d-4k", "GNS", {2, 4, 4}, 4'000, 0.65, 0.6, true, 0.0, 0.4, 0.03, true, 0.05, 60, 32},
        {"ti-2d-816", "Transformer inference", {2, 16}, 816, 0.55, 0.5, false, 0.24, 0.5, 0.03, false, 0.02, 120, 40},
        {"ti-3d-816", "Transformer inference", {2, 4, 4}, 816, 0.55, 0.5, false, 0.24, 0.5, 0.03, false, 0.02, 120, 40},
        // The held-out problem that fell from 1.000 to 0.494 had ~29 strategies a node.
        {"ti-3d-816-wide", "Transformer inference", {2, 4, 4}, 816, 0.55, 0.5, false, 0.24, 0.5, 0.03, false, 0.02, 120, 64},
        {"ti-3d-2k-plain", "Transformer inference", {4, 2, 4}, 2'000, 0.55, 0.0, false, 0.0, 0.5, 0.03, false, 0.03, 60, 40},
        {"gemma-2d-33k", "Gemma SFT", {8, 8}, 32'894, 0.65, 0.4, true, 0.01, 0.4, 0.04, false, 0.06, 180, 40},
        {"gemma-3d-3k", "Gemma SFT", {2, 4, 8}, 3'000, 0.6, 0.4, true, 0.01, 0.4, 0.04, false, 0.06, 60, 32},
        {"unet-2d-28k", "U-Net", {2, 16}, 28'526, 0.65, 0.5, true, 0.01, 0.4, 0.05, false, 0.03, 240, 40},
        {"diffusion-2d-65k", "Diffusion", {4, 8}, 65'000, 0.65, 0.5, true, 0.01, 0.4, 0.04, false, 0.04, 240, 40},
        {"diffusion-3d-1k-plain", "Diffusion", {2, 2, 4}, 1'200, 0.6, 0.0, false, 0.0, 0.4, 0.04, false, 0.04, 60, 40},
        // Under a thousand nodes after reduction and its limit binding at every time
        // point (each time point a knapsack row over the live nodes, the parameters in
        // every row): proven optimal by the exact engine.
        {"diffusion-3d-600-plain", "Diffusion", {2, 2, 4}, 600, 0.6, 0.0, false, 0.0, 0.4, 0.04, false, 0.04, 60, 40},
    };
    return families;
}

namespace {

Draft draftFamilyProblem(const ContestFamily& family, std::uint64_t seed)
{
    Draft draft{{}, {}, {}, std::mt19937_64(seed * 1'000'003 + std::hash<std::string>{}(family.name))};
    std::mt19937_64& random = draft.random;
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random); };
    const auto chance = [&](double p) { return uniform(0, 1) < p; };
    const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    std::discrete_distribution<int> rankOf(kRankWeights.begin(), kRankWeights.end());
    const std::vector<int>& mesh = family.mesh;

    const auto n = static_cast<std::size_t>(family.nodes);
    std::vector<Tensor> tensors;
    std::vector<Node> nodes;
    ShardingProblem& problem = draft.problem;
    problem.name = family.name + "-" + std::to_string(seed);
    problem.nodes.resize(n);
    std::vector<std::int64_t> lastUse(n, 0);
    draft.group.resize(n);
    std::iota(draft.group.begin(), draft.group.end(), 0);

    const auto newTensor = [&] {
        Tensor tensor;
        const int rank = rankOf(random);
        for (int d = 0; d < rank; ++d)
            tensor.dimLog2.push_back(pick(0, 12));
        tensor.bytes = std::exp(uniform(std::log(1024.0), std::log(1.3e8)));
        tensor.shardings = shardingsOf(mesh, tensor.dimLog2, family.maxStrategies, random);
        tensors.push_back(std::move(tensor));
        return static_cast<int>(tensors.size()) - 1;
    };
    // A node of `tensor` at the next position: usages by shards, no cost yet; some
    // strategies forbidden, never `reference`.
    const auto addNode = [&](int tensor, int reference) {
        const std::size_t i = nodes.size();
        const Tensor& t = tensors[static_cast<std::size_t>(tensor)];
        ProblemNode& node = problem.nodes[i];
        for (std::size_t s = 0; s < t.shardings.size(); ++s) {
            node.usages.push_back(std::llround(t.bytes / shardCount(mesh, t.shardings[s])));
            node.costs.push_back(static_cast<int>(s) != reference && chance(family.forbiddenStrategyShare) ? kForbidden : 0);
        }
        nodes.push_back({static_cast<int>(i), tensor, reference});
        lastUse[i] = static_cast<std::int64_t>(i) + 1;
        return static_cast<int>(i);
    };
    // The allowed strategy of least usage, as the planted plan's choice.
    const auto smallestAllowed = [&](int node) {
        const ProblemNode& p = problem.nodes[static_cast<std::size_t>(node)];
        int best = 0;
        for (int s = 1; s < p.strategyCount(); ++s) {
            const auto k = static_cast<std::size_t>(s);
            if (p.costs[k] < kForbidden
                && (p.costs[static_cast<std::size_t>(best)] >= kForbidden || p.usages[k] < p.usages[static_cast<std::size_t>(best)]))
                best = s;
        }
        return best;
    };
    // Producer u -> consumer v. mustMatch: the same tensor, the diagonal free and the
    // rest forbidden. Otherwise the bytes of u's shard moved along each mesh axis whose
    // split differs (slicing a replicated axis is free); `dimMap[j]` is u's dimension
    // that v's dimension j continues (-1: none).
    const auto connect = [&](int u, int v, bool mustMatch, const std::vector<int>& dimMap) {
        const Tensor& from = tensors[static_cast<std::size_t>(nodes[static_cast<std::size_t>(u)].tensor)];
        const Tensor& to = tensors[static_cast<std::size_t>(nodes[static_cast<std::size_t>(v)].tensor)];
        ProblemEdge edge{u, v, {}};
        if (mustMatch)
            draft.group[static_cast<std::size_t>(representative(draft.group, v))] = representative(draft.group, u);
        const int refU = nodes[static_cast<std::size_t>(u)].reference;
        const int refV = nodes[static_cast<std::size_t>(v)].reference;
        for (std::size_t a = 0; a < from.shardings.size(); ++a) {
            for (std::size_t b = 0; b < to.shardings.size(); ++b) {
                if (mustMatch) {
                    edge.costs.push_back(a == b ? 0 : kForbidden);
                    continue;
                }
                double moved = 0;
                for (std::size_t k = 0; k < mesh.size(); ++k) {
                    const int ua = from.shardings[a][k];
                    const int vb = to.shardings[b][k];
                    const bool same = vb >= 0 ? dimMap[static_cast<std::size_t>(vb)] == ua && ua >= 0 : ua < 0;
                    if (!same && ua >= 0)
                        moved += (mesh[k] - 1.0) / mesh[k] * (vb >= 0 ? 1.0 : 2.0);
                }
                const double cost = from.bytes / shardCount(mesh, from.shardings[a]) * moved;
                const bool planted = static_cast<int>(a) == refU && static_cast<int>(b) == refV;
                edge.costs.push_back(cost > 0 && !planted && family.forbiddenStrategyShare > 0 && chance(kForbiddenCellShare)
                                         ? kForbidden
                                         : std::llround(cost));
            }
        }
        problem.edges.push_back(std::move(edge));
        lastUse[static_cast<std::size_t>(u)] = std::max(lastUse[static_cast<std::size_t>(u)], static_cast<std::int64_t>(v) + 1);
    };
    const auto identity = [&](int tensor) {
        std::vector<int> map(tensors[static_cast<std::size_t>(tensor)].dimLog2.size());
        std::iota(map.begin(), map.end(), 0);
        return map;
    };
    const auto randomMap = [&](int fromTensor, int toTensor) {
        const int fromRank = static_cast<int>(tensors[static_cast<std::size_t>(fromTensor)].dimLog2.size());
        std::vector<int> map(tensors[static_cast<std::size_t>(toTensor)].dimLog2.size());
        for (int& d : map)
            d = fromRank > 0 && chance(0.7) ? pick(0, fromRank - 1) : -1;
        return map;
    };

    std::vector<int> operations;  // node indices of operations (and parameters), in order
    std::vector<int> pendingParameters;
    const auto recentOperation = [&] {
        const int back = std::min(static_cast<int>(operations.size()) - 1, static_cast<int>(std::floor(-std::log(uniform(1e-9, 1)) * 1.5)));
        return operations[operations.size() - 1 - static_cast<std::size_t>(back)];
    };
    std::vector<char> parameter(n, 0);
    std::vector<char> memoryless(n, 0);
    while (nodes.size() < n) {
        const double kind = uniform(0, 1);
        if (!operations.empty() && kind < family.viewShare) {
            const int of = recentOperation();
            const int v = addNode(nodes[static_cast<std::size_t>(of)].tensor, nodes[static_cast<std::size_t>(of)].reference);
            connect(of, v, true, {});
            lastUse[static_cast<std::size_t>(v)] = std::min<std::int64_t>(v + 2, static_cast<std::int64_t>(n));
            continue;
        }
        if (kind < family.viewShare + family.parameterShare && nodes.size() + 1 < n) {
            const int tensor = newTensor();
            const int p = addNode(tensor, 0);
            nodes[static_cast<std::size_t>(p)].reference = smallestAllowed(p);
            parameter[static_cast<std::size_t>(p)] = 1;
            pendingParameters.push_back(p);
            continue;
        }
        // An operation: elementwise on its first input, or a new shape.
        const int input = operations.empty() ? -1 : recentOperation();
        const bool elementwise = input >= 0 && chance(kElementwiseShare);
        const bool mustMatch = elementwise && chance(kMustMatchShare);
        const int tensor = elementwise ? nodes[static_cast<std::size_t>(input)].tensor : newTensor();
        const int v = addNode(tensor, 0);
        nodes[static_cast<std::size_t>(v)].reference =
            mustMatch ? nodes[static_cast<std::size_t>(input)].reference : smallestAllowed(v);
        if (mustMatch)
            problem.nodes[static_cast<std::size_t>(v)].costs[static_cast<std::size_t>(nodes[static_cast<std::size_t>(v)].reference)] = 0;
        ProblemNode& node = problem.nodes[static_cast<std::size_t>(v)];
        if (chance(family.computeShare)) {
            // Compute is cheap beside communication (most of a plan's cost is in its
            // re-layouts); splitting the dimension an operation reduces over costs an
            // all-reduce of the partial results.
            const Tensor& t = tensors[static_cast<std::size_t>(tensor)];
            const double compute = uniform(0.001, 0.05);
            const int reduced = t.dimLog2.empty() || chance(0.5) ? -1 : pick(0, static_cast<int>(t.dimLog2.size()) - 1);
            for (std::size_t s = 0; s < node.costs.size(); ++s) {
                if (node.costs[s] >= kForbidden)
                    continue;
                const double shard = t.bytes / shardCount(mesh, t.shardings[s]);
                const bool partial = reduced >= 0 && std::ranges::find(t.shardings[s], reduced) != t.shardings[s].end();
                node.costs[s] = std::llround(shard * compute + (partial ? shard * uniform(0.5, 2.0) : 0.0));
            }
        }
        if (input >= 0)
            connect(input, v, mustMatch, elementwise ? identity(tensor) : randomMap(nodes[static_cast<std::size_t>(input)].tensor, tensor));
        if (operations.size() > 2 && chance(kSecondInputShare)) {
            const int back = pick(2, std::min(20, static_cast<int>(operations.size())));
            const int other = operations[operations.size() - static_cast<std::size_t>(back)];
            if (other != input)
                connect(other, v, false, randomMap(nodes[static_cast<std::size_t>(other)].tensor, tensor));
        }
        if (chance(family.crossCutShare)) {
            // A tensor from hundreds to thousands of positions before: in a training
            // step's backward half, the forward activation at the mirrored position.
            const int mirrored = family.nodes - 1 - v + pick(-50, 50);
            const int far = family.training && mirrored < v - 100 ? mirrored : v - pick(100, std::clamp(v, 100, 5000));
            const auto it = std::upper_bound(operations.begin(), operations.end(), far);
            if (far >= 0 && it != operations.begin()) {
                const int other = *(it - 1);
                connect(other, v, false, randomMap(nodes[static_cast<std::size_t>(other)].tensor, tensor));
            }
        }
        for (const int p : pendingParameters)
            connect(p, v, false, randomMap(nodes[static_cast<std::size_t>(p)].tensor, tensor));
        pendingParameters.clear();
        memoryless[static_cast<std::size_t>(v)] = static_cast<char>(chance(kNoMemoryShare));
        operations.push_back(v);
    }

    for (std::size_t i = 0; i < n; ++i) {
        ProblemNode& node = problem.nodes[i];
        if (parameter[i]) {
            node.lo = 0;
            node.hi = static_cast<std::int64_t>(n);
        } else if (!memoryless[i]) {
            node.lo = static_cast<std::int64_t>(i);
            node.hi = lastUse[i];
        }
    }

    // The limit, between the smallest possible peak and the cheapest plan's peak, and
    // never below the planted plan's.
    Assignment cheapest(n);
    Assignment smallest(n);
    Assignment planted(n);
    for (std::size_t i = 0; i < n; ++i) {
        const ProblemNode& node = problem.nodes[i];
        cheapest[i] = static_cast<int>(std::min_element(node.costs.begin(), node.costs.end()) - node.costs.begin());
        smallest[i] = static_cast<int>(std::min_element(node.usages.begin(), node.usages.end()) - node.usages.begin());
        planted[i] = nodes[i].reference;
    }
    const std::int64_t least = evaluateSolution(problem, smallest).peakUsage;
    const std::int64_t cheap = evaluateSolution(problem, cheapest).peakUsage;
    const std::int64_t fits = evaluateSolution(problem, planted).peakUsage;
    problem.usageLimit =
        std::max(fits, least + static_cast<std::int64_t>(family.limitTightness * static_cast<double>(cheap - least)));
    for (std::size_t i = 0; i < n; ++i)
        representative(draft.group, static_cast<int>(i));
    draft.planted = std::move(planted);
    return draft;
}

// Gives the nodes new ids (GNS's are not in time order), the planted plan with them.
void shuffleIds(Draft& draft)
{
    ShardingProblem& problem = draft.problem;
    const std::size_t n = problem.nodes.size();
    std::vector<int> id(n);
    std::iota(id.begin(), id.end(), 0);
    std::shuffle(id.begin(), id.end(), draft.random);
    std::vector<ProblemNode> shuffled(n);
    for (std::size_t i = 0; i < n; ++i)
        shuffled[static_cast<std::size_t>(id[i])] = std::move(problem.nodes[i]);
    problem.nodes = std::move(shuffled);
    for (ProblemEdge& edge : problem.edges) {
        edge.u = id[static_cast<std::size_t>(edge.u)];
        edge.v = id[static_cast<std::size_t>(edge.v)];
    }
    Assignment planted(n);
    for (std::size_t i = 0; i < n; ++i)
        planted[static_cast<std::size_t>(id[i])] = draft.planted[i];
    draft.planted = std::move(planted);
}

// Changes the draft's costs and limit so that a plan x is provably optimal, by a
// Lagrangian certificate. x: must-match groups live at the peak keep the planted
// (smallest) strategy, the others take their cheapest allowed one; the limit L is
// x's peak, reached at time t. With a price lambda > 0 on memory at t alone, F(y) =
// cost(y) + lambda usage_t(y) is made least at x: each group's node costs plus lambda
// times its usage at t are least at x's strategy (cheaper strategies are raised; those
// live at t then pay a share of their remaining margin more at x, so that without the
// limit other strategies would be cheaper), and each edge's cell at x is lowered to its
// least allowed cell. Any feasible y then costs cost(y) >= F(y) - lambda L >=
// F(x) - lambda L = cost(x), as usage_t(x) = L. Returns x.
Assignment plantOptimum(Draft& draft, std::uint64_t seed)
{
    ShardingProblem& problem = draft.problem;
    const std::size_t n = problem.nodes.size();
    std::mt19937_64 random(seed * 7'368'787 + 11);
    std::vector<std::vector<int>> members(n);
    for (std::size_t i = 0; i < n; ++i)
        members[static_cast<std::size_t>(draft.group[i])].push_back(static_cast<int>(i));
    std::vector<int> groups;
    for (std::size_t g = 0; g < n; ++g)
        if (!members[g].empty())
            groups.push_back(static_cast<int>(g));
    const auto cost = [&](int node, int s) { return problem.nodes[static_cast<std::size_t>(node)].costs[static_cast<std::size_t>(s)]; };
    const auto allowed = [&](int g, int s) {
        return std::ranges::all_of(members[static_cast<std::size_t>(g)], [&](int m) { return cost(m, s) < kForbidden; });
    };
    const auto groupCost = [&](int g, int s) {
        double sum = 0;
        for (const int m : members[static_cast<std::size_t>(g)])
            sum += static_cast<double>(cost(m, s));
        return sum;
    };
    const auto strategies = [&](int g) { return problem.nodes[static_cast<std::size_t>(g)].strategyCount(); };
    const auto setGroup = [&](Assignment& x, int g, int s) {
        for (const int m : members[static_cast<std::size_t>(g)])
            x[static_cast<std::size_t>(m)] = s;
    };

    // Groups live at the peak are pinned to the planted strategy, until the peak of the
    // plan falls where every live group is pinned.
    Assignment x = draft.planted;
    std::vector<char> pinned(n, 0);
    std::int64_t peakTime = 0;
    for (int round = 0; round < 200; ++round) {
        for (const int g : groups) {
            if (pinned[static_cast<std::size_t>(g)])
                continue;
            int best = draft.planted[static_cast<std::size_t>(g)];
            for (int s = 0; s < strategies(g); ++s)
                if (allowed(g, s) && groupCost(g, s) < groupCost(g, best))
                    best = s;
            setGroup(x, g, best);
        }
        const UsageProfile profile = usageProfile(problem, x);
        peakTime = profile.times[static_cast<std::size_t>(std::max_element(profile.usages.begin(), profile.usages.end())
                                                          - profile.usages.begin())];
        bool pinnedMore = false;
        for (std::size_t i = 0; i < n; ++i) {
            const ProblemNode& node = problem.nodes[i];
            const auto g = static_cast<std::size_t>(draft.group[i]);
            if (node.lo <= peakTime && peakTime < node.hi && !pinned[g]) {
                pinned[g] = 1;
                setGroup(x, static_cast<int>(g), draft.planted[g]);
                pinnedMore = true;
            }
        }
        if (!pinnedMore)
            break;
    }
    const UsageProfile profile = usageProfile(problem, x);
    const auto peak = std::max_element(profile.usages.begin(), profile.usages.end());
    peakTime = profile.times[static_cast<std::size_t>(peak - profile.usages.begin())];
    problem.usageLimit = *peak;

    // Each group's usage at the peak time per strategy.
    const auto liveUsage = [&](int g, int s) {
        double sum = 0;
        for (const int m : members[static_cast<std::size_t>(g)]) {
            const ProblemNode& node = problem.nodes[static_cast<std::size_t>(m)];
            if (node.lo <= peakTime && peakTime < node.hi)
                sum += static_cast<double>(node.usages[static_cast<std::size_t>(s)]);
        }
        return sum;
    };
    // lambda: the median cost per byte that the live groups trade between strategies.
    std::vector<double> rates;
    for (const int g : groups) {
        const int at = x[static_cast<std::size_t>(g)];
        for (int s = 0; s < strategies(g); ++s) {
            const double more = liveUsage(g, s) - liveUsage(g, at);
            const double dearer = groupCost(g, s) - groupCost(g, at);
            if (allowed(g, s) && more > 0 && dearer != 0)
                rates.push_back(std::abs(dearer) / more);
        }
    }
    std::nth_element(rates.begin(), rates.begin() + static_cast<std::ptrdiff_t>(rates.size() / 2), rates.end());
    const double lambda = rates.empty() ? 1.0 : rates[rates.size() / 2];

    for (const int g : groups) {
        const int at = x[static_cast<std::size_t>(g)];
        const auto priced = [&](int s) { return groupCost(g, s) + lambda * liveUsage(g, s); };
        std::int64_t& own = problem.nodes[static_cast<std::size_t>(g)].costs[static_cast<std::size_t>(at)];
        double margin = std::numeric_limits<double>::infinity();
        for (int s = 0; s < strategies(g); ++s) {
            if (s == at || !allowed(g, s))
                continue;
            // One unit above, against rounding in the doubles.
            const double below = priced(at) - priced(s);
            if (below > -1)
                problem.nodes[static_cast<std::size_t>(g)].costs[static_cast<std::size_t>(s)] +=
                    static_cast<std::int64_t>(std::ceil(below)) + 1;
            margin = std::min(margin, priced(s) - priced(at));
        }
        if (liveUsage(g, at) > 0 && std::isfinite(margin) && margin > 2)
            own += static_cast<std::int64_t>(std::uniform_real_distribution<double>(0.2, 0.8)(random) * (margin - 2));
    }
    for (ProblemEdge& edge : problem.edges) {
        const std::size_t columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
        std::int64_t least = 0;
        bool any = false;
        for (const std::int64_t c : edge.costs)
            if (c < kForbidden) {
                least = any ? std::min(least, c) : c;
                any = true;
            }
        std::int64_t& cell = edge.costs[static_cast<std::size_t>(x[static_cast<std::size_t>(edge.u)]) * columns
                                        + static_cast<std::size_t>(x[static_cast<std::size_t>(edge.v)])];
        cell = std::min(cell, least);
    }
    return x;
}

}  // namespace

PlantedProblem generatePlantedFamilyProblem(const ContestFamily& family, std::uint64_t seed)
{
    Draft draft = draftFamilyProblem(family, seed);
    draft.planted = plantOptimum(draft, seed);
    draft.problem.name += "-planted";
    if (family.shuffledIds)
        shuffleIds(draft);
    const CostSum cost = evaluateSolution(draft.problem, draft.planted).cost;
    return {std::move(draft.problem), std::move(draft.planted), cost};
}

ShardingProblem generateFamilyProblem(const ContestFamily& family, std::uint64_t seed)
{
    Draft draft = draftFamilyProblem(family, seed);
    if (family.shuffledIds)
        shuffleIds(draft);
    return std::move(draft.problem);
}

}  // namespace tapestry
