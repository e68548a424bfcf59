#pragma once

#include "fold/CoarseGraph.h"
#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace tapestry {

// Classes of coarse nodes and crossing tensors that a cost model prices alike under a
// uniform plan: one that gives every instance of a top-level family its representative's
// strategies, as the stack searches lay every layer out. Two nodes are in one class when
// they sit at the same position of their family's instances and everything their price
// reads is equal (their own facts, and where the nodes around them sit: the makers of
// their saved inputs, the readers of their outputs); tensors likewise (their facts,
// producer and consumers). Pricing one member of each class and counting the members
// then prices the whole model, however deep (CostModel::evaluateTotals). Costs land on
// places (a block, or the nodes outside blocks), and blocks whose places hold the same
// classes (the first block reads the embedding, the last feeds the head, the others
// alike) are one kind.
struct PricingClasses {
    // Per node: the node at its position in its top-level family's representative, or
    // itself (outside families, in the representative, or in an instance unlike it).
    std::vector<CoarseNodeId> representative;

    struct NodeClass {
        CoarseNodeId node;  // the member priced
        double count = 0;
        // The nodes reading its outputs that cross nodes, one per representative position
        // (the others take the same strategy in a uniform plan): a mask's maker is read
        // by every layer.
        std::vector<CoarseNodeId> readers;
        // Per saved activation of the member: the node that made it, when it crosses
        // into the member from another node (else invalid).
        std::vector<CoarseNodeId> savedMakers;
    };
    std::vector<NodeClass> nodes;
    std::vector<CoarseNodeId> members;  // each class's member priced (NodeClass::node)
    std::vector<std::size_t> classOf;   // per node: its class (an index into `nodes`)
    struct TensorClass {
        std::size_t tensor = 0;  // the member priced: an index into CostModel::crossingTensors()
        // The member's consumers that may convert it (indices into its consumers): the
        // first at each representative position. A later one at the same position needs
        // the layouts the first needs, which only the first reader converts to.
        std::vector<std::size_t> converting;
    };
    std::vector<TensorClass> tensors;

    // A tensor class's conversions that land on a place: at the reader with `consumer`
    // index in its consumers (forward), or at the producer (-1: the gradient's).
    struct Charge {
        std::size_t tensorClass = 0;
        int consumer = -1;
        auto operator<=>(const Charge&) const = default;
    };
    struct Place {
        std::vector<std::size_t> nodeClasses;
        std::vector<Charge> charges;
        CoarseNodeId first;  // a block kind's first node (its input is what a stage boundary sends)
    };
    std::vector<Place> blockKinds;
    std::vector<std::size_t> kindOfBlock;  // per block of modelBlocks()
    std::vector<double> kindCount;
    Place before;  // outside blocks, before the first (with the first pipeline chunk)
    Place after;   // every other node outside blocks (with the last chunk)
    // The conversions of tensors read in several blocks (a causal mask, rotary tables),
    // each at its place: a block's index, or kBefore or kAfter. Only the first reader
    // needing a layout converts, so the blocks' shares differ: they stay out of the kinds.
    static constexpr std::size_t kBefore = static_cast<std::size_t>(-1);
    static constexpr std::size_t kAfter = static_cast<std::size_t>(-2);
    std::vector<std::pair<Charge, std::size_t>> spreadCharges;

    // Whether `plan` gives every node its representative's strategy.
    [[nodiscard]] bool uniform(const Plan& plan) const;
};

// Per crossing tensor, the facts its conversions read, its producer and its consumers:
// tensor t's are consumers[consumerStart[t]] up to consumers[consumerStart[t + 1]] (held
// flat: a deep model has thousands of tensors, each read by one or two nodes).
struct CrossingEnds {
    std::vector<CoarseNodeId> producers;
    std::vector<std::array<double, 8>> facts;
    std::vector<std::size_t> consumerStart{0};
    std::vector<CoarseNodeId> consumers;

    void add(CoarseNodeId producer, const std::array<double, 8>& tensorFacts)
    {
        producers.push_back(producer);
        facts.push_back(tensorFacts);
        consumerStart.push_back(consumers.size());
    }
    // A consumer of the tensor added last.
    void addConsumer(CoarseNodeId consumer)
    {
        consumers.push_back(consumer);
        ++consumerStart.back();
    }
    [[nodiscard]] std::size_t size() const { return producers.size(); }
    [[nodiscard]] std::span<const CoarseNodeId> consumersOf(std::size_t tensor) const
    {
        return {consumers.data() + consumerStart[tensor], consumers.data() + consumerStart[tensor + 1]};
    }
};

// The classes of `coarse` with `families`. `nodeFacts(node, into)`: appends the node's
// facts as numbers (equal for nodes that price alike given equal neighbours);
// `sameFacts(a, b)`: whether a's facts equal b's, where that is known without building
// them (false: unknown); `savedMakers(node, into)`: appends per saved activation the node
// whose output crosses into it (or invalid); `tensors`: the crossing tensors. A node of a
// family instance is first compared with the node at its position in the instance
// before (and a tensor with the one made there), so a deep model's classes cost a
// comparison of neighbours per node.
[[nodiscard]] PricingClasses buildPricingClasses(
    const CoarseGraph& coarse, const FamilyTable& families,
    const std::function<void(CoarseNodeId, std::vector<double>&)>& nodeFacts,
    const std::function<bool(CoarseNodeId, CoarseNodeId)>& sameFacts,
    const std::function<void(CoarseNodeId, std::vector<CoarseNodeId>&)>& savedMakers,
    const CrossingEnds& tensors);

}  // namespace tapestry
