#include "solver/MessagePassing.h"

#include "solver/ProblemReducer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tapestry {

namespace {

constexpr double kForbidden = static_cast<double>(kCostCap);

}  // namespace

MessagePassing::MessagePassing(const ShardingProblem& problem) : problem_(problem)
{
    const std::size_t n = problem.nodes.size();
    offsets_.resize(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        offsets_[i + 1] = offsets_[i] + problem.nodes[i].costs.size();
    std::vector<double> costs(offsets_[n]);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t s = 0; s < problem.nodes[i].costs.size(); ++s)
            costs[offsets_[i] + s] = static_cast<double>(std::min(problem.nodes[i].costs[s], kCostCap));
    setNodeCosts(std::move(costs));

    std::vector<int> degree(n, 0);
    for (const ProblemEdge& edge : problem.edges) {
        ++degree[static_cast<std::size_t>(edge.u)];
        ++degree[static_cast<std::size_t>(edge.v)];
    }
    arcStart_.resize(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        arcStart_[i + 1] = arcStart_[i] + static_cast<std::size_t>(degree[i]);
    arcs_.resize(arcStart_[n]);
    std::vector<std::size_t> fill(arcStart_.begin(), arcStart_.end() - 1);
    messageOffsets_.resize(problem.edges.size() + 1, 0);
    std::vector<int> before(n, 0);
    std::vector<int> after(n, 0);
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        const ProblemEdge& edge = problem.edges[e];
        const auto u = static_cast<std::size_t>(edge.u);
        const auto v = static_cast<std::size_t>(edge.v);
        arcs_[fill[u]++] = {edge.v, static_cast<int>(e), true};
        arcs_[fill[v]++] = {edge.u, static_cast<int>(e), false};
        messageOffsets_[e + 1] = messageOffsets_[e] + problem.nodes[u].costs.size() + problem.nodes[v].costs.size();
        ++(u < v ? after[u] : before[u]);
        ++(v < u ? after[v] : before[v]);
    }
    messages_.assign(messageOffsets_.back(), 0.0);
    weights_.resize(n, 1.0);
    std::size_t widest = 1;
    for (std::size_t i = 0; i < n; ++i) {
        weights_[i] = 1.0 / std::max(1, std::max(before[i], after[i]));
        widest = std::max(widest, problem.nodes[i].costs.size());
    }
    belief_.resize(widest);
    scratch_.resize(widest);
}

void MessagePassing::setNodeCosts(std::vector<double> costs)
{
    nodeCosts_ = std::move(costs);
}

double MessagePassing::edgeCost(const Arc& arc, int sFrom, int sTo) const
{
    const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(arc.edge)];
    const auto columns = problem_.nodes[static_cast<std::size_t>(edge.v)].costs.size();
    const std::size_t cell = arc.fromIsU ? static_cast<std::size_t>(sFrom) * columns + static_cast<std::size_t>(sTo)
                                         : static_cast<std::size_t>(sTo) * columns + static_cast<std::size_t>(sFrom);
    return static_cast<double>(std::min(edge.costs[cell], kCostCap));
}

double* MessagePassing::messageInto(const Arc& arc)
{
    return const_cast<double*>(std::as_const(*this).messageInto(arc));
}

const double* MessagePassing::messageInto(const Arc& arc) const
{
    // Layout per edge: into v first, then into u.
    const ProblemEdge& edge = problem_.edges[static_cast<std::size_t>(arc.edge)];
    const std::size_t base = messageOffsets_[static_cast<std::size_t>(arc.edge)];
    return messages_.data() + (arc.fromIsU ? base : base + problem_.nodes[static_cast<std::size_t>(edge.v)].costs.size());
}

const double* MessagePassing::messageFrom(const Arc& arc) const
{
    return messageInto({0, arc.edge, !arc.fromIsU});
}

void MessagePassing::pass(bool forward)
{
    const int n = static_cast<int>(problem_.nodes.size());
    for (int k = 0; k < n; ++k) {
        const int i = forward ? k : n - 1 - k;
        const auto ui = static_cast<std::size_t>(i);
        const int count = problem_.nodes[ui].strategyCount();
        // Reparametrized node cost: own cost plus every incoming message.
        for (int s = 0; s < count; ++s)
            belief_[static_cast<std::size_t>(s)] = nodeCosts_[offsets_[ui] + static_cast<std::size_t>(s)];
        for (std::size_t a = arcStart_[ui]; a < arcStart_[ui + 1]; ++a) {
            const double* in = messageFrom(arcs_[a]);
            for (int s = 0; s < count; ++s)
                belief_[static_cast<std::size_t>(s)] += in[s];
        }
        for (std::size_t a = arcStart_[ui]; a < arcStart_[ui + 1]; ++a) {
            const Arc& arc = arcs_[a];
            if ((arc.to > i) != forward)
                continue;
            const double* in = messageFrom(arc);
            for (int s = 0; s < count; ++s)
                scratch_[static_cast<std::size_t>(s)] = weights_[ui] * belief_[static_cast<std::size_t>(s)] - in[s];
            const int targets = problem_.nodes[static_cast<std::size_t>(arc.to)].strategyCount();
            double* out = messageInto(arc);
            std::fill(out, out + targets, std::numeric_limits<double>::infinity());
            for (int s = 0; s < count; ++s) {
                const double h = scratch_[static_cast<std::size_t>(s)];
                if (h >= kForbidden)
                    continue;
                for (int t = 0; t < targets; ++t)
                    out[t] = std::min(out[t], h + edgeCost(arc, s, t));
            }
            const double least = *std::min_element(out, out + targets);
            for (int t = 0; t < targets; ++t)
                out[t] = std::min(out[t] - least, kForbidden);
        }
    }
}

void MessagePassing::sweep()
{
    pass(true);
    pass(false);
}

Assignment MessagePassing::decode() const
{
    const std::size_t n = problem_.nodes.size();
    Assignment x(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        int best = 0;
        double bestValue = std::numeric_limits<double>::infinity();
        for (int s = 0; s < problem_.nodes[i].strategyCount(); ++s) {
            double value = nodeCosts_[offsets_[i] + static_cast<std::size_t>(s)];
            for (std::size_t a = arcStart_[i]; a < arcStart_[i + 1]; ++a) {
                const Arc& arc = arcs_[a];
                value += static_cast<std::size_t>(arc.to) < i ? edgeCost(arc, s, x[static_cast<std::size_t>(arc.to)])
                                                              : messageFrom(arc)[s];
            }
            if (value < bestValue) {
                bestValue = value;
                best = s;
            }
        }
        x[i] = best;
    }
    return x;
}

double MessagePassing::lowerBound() const
{
    // value(s) = own cost + messages from later neighbours
    //          + min over each earlier neighbour's t of (edge cost - message into it).
    long double total = 0;
    for (std::size_t i = 0; i < problem_.nodes.size(); ++i) {
        double least = std::numeric_limits<double>::infinity();
        for (int s = 0; s < problem_.nodes[i].strategyCount(); ++s) {
            long double value = nodeCosts_[offsets_[i] + static_cast<std::size_t>(s)];
            for (std::size_t a = arcStart_[i]; a < arcStart_[i + 1]; ++a) {
                const Arc& arc = arcs_[a];
                if (static_cast<std::size_t>(arc.to) > i) {
                    value += messageFrom(arc)[s];
                    continue;
                }
                const double* into = messageInto(arc);
                double pushed = std::numeric_limits<double>::infinity();
                for (int t = 0; t < problem_.nodes[static_cast<std::size_t>(arc.to)].strategyCount(); ++t)
                    pushed = std::min(pushed, edgeCost(arc, s, t) - into[t]);
                value += pushed;
            }
            if (std::isnan(static_cast<double>(value)))  // messages of a node whose every strategy is forbidden
                return -std::numeric_limits<double>::infinity();
            least = std::min(least, static_cast<double>(value));
        }
        total += least;
    }
    return static_cast<double>(total);
}

}  // namespace tapestry
