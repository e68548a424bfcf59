#pragma once

#include "solver/ShardingProblem.h"

#include <cstddef>
#include <vector>

namespace tapestry {

// Sequential tree-reweighted message passing (TRW-S, Kolmogorov 2006) for the
// limit-free problem, a pairwise MAP problem: each sweep passes min-sum messages along
// the node order and back, and an assignment is decoded from the messages by
// conditioning node after node in that order. Node costs may be replaced between sweeps (the Lagrangian
// search prices memory into them) while the messages carry over as a warm start.
// Costs at or above kCostCap count as forbidden; the usage limit is ignored.
class MessagePassing {
public:
    explicit MessagePassing(const ShardingProblem& problem);

    // Replaces the node costs: costs[offset(i) + s] for node i's strategy s.
    void setNodeCosts(std::vector<double> costs);
    [[nodiscard]] std::size_t offset(int node) const { return offsets_[static_cast<std::size_t>(node)]; }

    // One forward and one backward pass.
    void sweep();
    // Greedy decoding in sweep order: each node takes the strategy cheapest against the
    // already decoded ones and the messages of the rest.
    [[nodiscard]] Assignment decode() const;
    // A lower bound on the cheapest assignment under the current node costs, valid
    // for any messages: the messages reparametrize the costs (same total for every
    // assignment), each edge's remainder is pushed to its later end by minimizing over
    // the earlier one, and then every node takes its own minimum. Tight on trees once
    // the messages have converged; forbidden costs count as kCostCap.
    [[nodiscard]] double lowerBound() const;

private:
    struct Arc {
        int to;
        int edge;
        bool fromIsU;
    };

    [[nodiscard]] double edgeCost(const Arc& arc, int sFrom, int sTo) const;
    // Message into `arc.to` over `arc`'s edge, stored per edge and direction.
    [[nodiscard]] double* messageInto(const Arc& arc);
    [[nodiscard]] const double* messageInto(const Arc& arc) const;
    [[nodiscard]] const double* messageFrom(const Arc& arc) const;
    void pass(bool forward);

    const ShardingProblem& problem_;
    std::vector<std::size_t> offsets_;
    std::vector<double> nodeCosts_;
    std::vector<std::size_t> arcStart_;
    std::vector<Arc> arcs_;
    std::vector<double> weights_;  // per node: 1 / max(earlier neighbours, later neighbours)
    // Per edge: the message into v (|S(v)| values) then the message into u (|S(u)|).
    std::vector<std::size_t> messageOffsets_;
    std::vector<double> messages_;
    std::vector<double> belief_;
    std::vector<double> scratch_;
};

}  // namespace tapestry
