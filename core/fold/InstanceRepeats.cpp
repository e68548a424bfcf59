#include "fold/InstanceRepeats.h"

#include "base/Error.h"
#include "fold/ActivationWalk.h"
#include "graph/Graph.h"

#include <algorithm>

namespace tapestry {

namespace {

constexpr std::int64_t kOutside = INT64_MIN;

// One end of a tensor (its maker or a reader) seen from an instance: so many instances
// away in the same family at a position, or an op outside the family.
struct End {
    std::int64_t offset = kOutside;
    std::int32_t node = 0;
    std::int32_t op = 0;
    std::uint32_t outside = 0;
    OpRole role = OpRole::Auxiliary;
    CoarseNodeKind kind = CoarseNodeKind::Elementwise;

    bool operator==(const End&) const = default;
};

class RepeatFinder {
public:
    RepeatFinder(const Graph& graph, const CoarseGraph& coarse, InstanceRepeats& repeats)
        : graph_(graph), coarse_(coarse), repeats_(repeats)
    {
    }

    // Whether instance `a` is laid out as instance `a - 1`, position by position.
    [[nodiscard]] bool sameAsBefore(std::size_t a) const
    {
        const std::vector<CoarseNodeId>& x = repeats_.instances[a];
        const std::vector<CoarseNodeId>& y = repeats_.instances[a - 1];
        if (x.size() != y.size() || x.empty() || !(y.back() < x.front()))
            return false;
        for (std::size_t n = 0; n < x.size(); ++n) {
            const CoarseNode& u = coarse_.node(x[n]);
            const CoarseNode& v = coarse_.node(y[n]);
            if (u.kind != v.kind || u.ops.empty() || u.ops.size() != v.ops.size() ||
                u.auxiliaryOps.size() != v.auxiliaryOps.size() || anchorAt(u) != anchorAt(v))
                return false;
            for (std::size_t o = 0; o < u.ops.size(); ++o) {
                if (!sameOp(u.ops[o], a, v.ops[o], a - 1))
                    return false;
            }
        }
        return true;
    }

private:
    static std::ptrdiff_t anchorAt(const CoarseNode& node)
    {
        if (!node.anchor.isValid())
            return -1;
        return std::find(node.ops.begin(), node.ops.end(), node.anchor) - node.ops.begin();
    }

    [[nodiscard]] End endOf(OpId op, std::size_t instance, bool maker) const
    {
        End end;
        const InstanceRepeats::Place& place = repeats_.places[op.index()];
        // An op of the instance itself is compared with its counterpart by sameOp.
        if (place.instance == static_cast<std::int32_t>(instance)) {
            end.offset = 0;
            end.node = place.node;
            end.op = place.op;
            return end;
        }
        end.role = coarse_.roles[op.index()];
        end.kind = coarse_.nodes[coarse_.nodeOf[op.index()].index()].kind;
        if (place.instance >= 0 && repeats_.familyOf[static_cast<std::size_t>(place.instance)] ==
                                       repeats_.familyOf[instance]) {
            const auto at = static_cast<std::int64_t>(place.instance);
            const auto from = static_cast<std::int64_t>(instance);
            end.offset = maker ? from - at : at - from;
            end.node = place.node;
            end.op = place.op;
        } else {
            end.outside = op.value();
        }
        return end;
    }

    // A walk back to a projection (CostModel::projectedBytes) passes `op`.
    [[nodiscard]] bool passesWalks(OpId op) const
    {
        return activationWalkedBackThrough(graph_, coarse_, op).isValid();
    }

    [[nodiscard]] bool sameTensor(TensorId s, std::size_t a, TensorId t, std::size_t b) const
    {
        if (s.isValid() != t.isValid())
            return false;
        if (!s.isValid())
            return true;
        const Tensor& x = graph_.tensor(s);
        const Tensor& y = graph_.tensor(t);
        if (x.role != y.role || x.dtype != y.dtype || x.isGraphOutput || y.isGraphOutput || !(x.shape == y.shape) ||
            x.producer.isValid() != y.producer.isValid())
            return false;
        if (!x.producer.isValid())  // a weight, or a graph input both read
            return x.role == TensorRole::Initializer || s == t;
        const End maker = endOf(x.producer, a, true);
        if (!(maker == endOf(y.producer, b, true)))
            return false;
        if (maker.offset == kOutside)  // one tensor every instance reads
            return s == t;
        if (maker.offset > 0 && passesWalks(x.producer))
            return false;
        if (x.consumers.size() != y.consumers.size())
            return false;
        for (std::size_t c = 0; c < x.consumers.size(); ++c) {
            if (!(endOf(x.consumers[c], a, false) == endOf(y.consumers[c], b, false)))
                return false;
        }
        return true;
    }

    // An input an op of the instance makes is compared where it is made (sameOp's
    // outputs): here only where it comes from.
    [[nodiscard]] bool sameInput(TensorId s, std::size_t a, TensorId t, std::size_t b) const
    {
        if (!s.isValid() || !t.isValid())
            return s.isValid() == t.isValid();
        const OpId p = graph_.tensor(s).producer;
        const OpId q = graph_.tensor(t).producer;
        if (p.isValid() && q.isValid() && repeats_.places[p.index()].instance == static_cast<std::int32_t>(a) &&
            repeats_.places[q.index()].instance == static_cast<std::int32_t>(b)) {
            const InstanceRepeats::Place& x = repeats_.places[p.index()];
            const InstanceRepeats::Place& y = repeats_.places[q.index()];
            if (x.op < 0 || y.op < 0)  // an auxiliary op's constant: compared below
                return sameTensor(s, a, t, b);
            const std::vector<TensorId>& made = graph_.op(p).outputs;
            const std::vector<TensorId>& was = graph_.op(q).outputs;
            return x.node == y.node && x.op == y.op &&
                   std::find(made.begin(), made.end(), s) - made.begin() ==
                       std::find(was.begin(), was.end(), t) - was.begin();
        }
        return sameTensor(s, a, t, b);
    }

    [[nodiscard]] bool sameOp(OpId p, std::size_t a, OpId q, std::size_t b) const
    {
        const Op& u = graph_.op(p);
        const Op& v = graph_.op(q);
        if (coarse_.roles[p.index()] != coarse_.roles[q.index()] || u.type != v.type ||
            u.inputs.size() != v.inputs.size() || u.outputs.size() != v.outputs.size())
            return false;
        for (std::size_t i = 0; i < u.inputs.size(); ++i) {
            if (!sameInput(u.inputs[i], a, v.inputs[i], b))
                return false;
        }
        for (std::size_t i = 0; i < u.outputs.size(); ++i) {
            if (!sameTensor(u.outputs[i], a, v.outputs[i], b))
                return false;
        }
        return true;
    }

    const Graph& graph_;
    const CoarseGraph& coarse_;
    const InstanceRepeats& repeats_;
};

}  // namespace

TensorId InstanceRepeats::next(const Graph& graph, const CoarseGraph& coarse, TensorId tensor) const
{
    const OpId maker = graph.tensor(tensor).producer;
    if (!maker.isValid() || places[maker.index()].instance < 0)
        return tensor;
    const Place& place = places[maker.index()];
    // Only a repeating instance's tensors move, and each has a successor in its family;
    // anything else is a caller's mistake, refused rather than read out of bounds.
    const auto after = static_cast<std::size_t>(place.instance) + 1;
    if (after >= instances.size() || familyOf[after] != familyOf[after - 1])
        throw Error(ErrorCode::InvalidArgument, {},
                    "InstanceRepeats::next: tensor " + graph.tensor(tensor).name +
                        " is made in the last instance of its family, which has no next");
    const CoarseNode& node = coarse.node(instances[after][static_cast<std::size_t>(place.node)]);
    const OpId op = place.op >= 0 ? node.ops[static_cast<std::size_t>(place.op)]
                                  : node.auxiliaryOps[static_cast<std::size_t>(-1 - place.op)];
    const std::vector<TensorId>& made = graph.op(maker).outputs;
    const auto slot = std::find(made.begin(), made.end(), tensor) - made.begin();
    return graph.op(op).outputs[static_cast<std::size_t>(slot)];
}

InstanceRepeats findInstanceRepeats(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families)
{
    InstanceRepeats repeats;
    repeats.opBefore.assign(graph.opCount(), OpId{});
    repeats.nodeBefore.assign(coarse.nodes.size(), CoarseNodeId{});
    repeats.places.assign(graph.opCount(), {});
    std::vector<bool> exact;
    for (std::size_t f = 0; f < families.families.size(); ++f) {
        const Family& family = families.families[f];
        if (family.parent.isValid())
            continue;
        for (const BlockInstance& instance : family.instances) {
            const auto index = static_cast<std::int32_t>(repeats.instances.size());
            repeats.instances.push_back(instance.nodes);
            repeats.familyOf.push_back(f);
            exact.push_back(std::none_of(family.foldedVariants.begin(), family.foldedVariants.end(),
                                         [&](const FamilyVariant& v) { return v.instance.nodes == instance.nodes; }));
            for (std::size_t n = 0; n < instance.nodes.size(); ++n) {
                const CoarseNode& node = coarse.node(instance.nodes[n]);
                for (std::size_t o = 0; o < node.ops.size(); ++o)
                    repeats.places[node.ops[o].index()] = {index, static_cast<std::int32_t>(n),
                                                           static_cast<std::int32_t>(o)};
                for (std::size_t o = 0; o < node.auxiliaryOps.size(); ++o)
                    repeats.places[node.auxiliaryOps[o].index()] = {index, static_cast<std::int32_t>(n),
                                                                    -1 - static_cast<std::int32_t>(o)};
            }
        }
    }
    const RepeatFinder finder(graph, coarse, repeats);
    const auto follows = [&](std::size_t i) {  // instance i - 1 is the one before it in its family
        return i > 0 && repeats.familyOf[i - 1] == repeats.familyOf[i] && exact[i] && exact[i - 1];
    };
    std::vector<bool> sameAsBefore(repeats.instances.size(), false);
    for (std::size_t i = 0; i < repeats.instances.size(); ++i)
        sameAsBefore[i] = follows(i) && finder.sameAsBefore(i);
    for (std::size_t i = 1; i < repeats.instances.size(); ++i) {
        if (!sameAsBefore[i] || !sameAsBefore[i - 1])
            continue;
        const std::vector<CoarseNodeId>& instance = repeats.instances[i];
        const std::vector<CoarseNodeId>& before = repeats.instances[i - 1];
        for (std::size_t n = 0; n < instance.size(); ++n) {
            repeats.nodeBefore[instance[n].index()] = before[n];
            const CoarseNode& node = coarse.node(instance[n]);
            const CoarseNode& was = coarse.node(before[n]);
            for (std::size_t o = 0; o < node.ops.size(); ++o) {
                repeats.opBefore[node.ops[o].index()] = was.ops[o];
                repeats.repeatedOps.push_back(node.ops[o]);
            }
        }
    }
    return repeats;
}

}  // namespace tapestry
