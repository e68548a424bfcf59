#include "cost/CostModel.h"

#include "base/Error.h"
#include "graph/Graph.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tapestry {

namespace {

bool isSharded(AxisLayout layout)
{
    return layout == AxisLayout::Batch || layout == AxisLayout::Sequence || layout == AxisLayout::Hidden;
}

// The collective that turns `from` into `to` along one axis, and the share of the full
// tensor it moves as its S (cost-model.md, "Resharding on edges").
struct Conversion {
    CollectiveKind kind;
    bool perShard;  // S is one shard (AllToAll's send buffer) instead of the full tensor
};

std::optional<Conversion> conversionBetween(AxisLayout from, AxisLayout to)
{
    if (from == to || to == AxisLayout::Partial)
        return std::nullopt;
    if (from == AxisLayout::Replicated)
        return std::nullopt;  // a local slice
    if (from == AxisLayout::Partial)
        return Conversion{to == AxisLayout::Replicated ? CollectiveKind::AllReduce : CollectiveKind::ReduceScatter, false};
    if (to == AxisLayout::Replicated)
        return Conversion{CollectiveKind::AllGather, false};
    return Conversion{CollectiveKind::AllToAll, true};
}

void addCollective(TimeBreakdown& time, CollectiveKind kind, std::size_t axis, const CollectiveBreakdown& price,
                   double share = 1.0)
{
    const double seconds = price.seconds() * share;
    time.byCollective[static_cast<std::size_t>(kind)] += seconds;
    time.byLink[static_cast<std::size_t>(LinkClass::Intra)] += price.seconds(LinkClass::Intra) * share;
    time.byLink[static_cast<std::size_t>(LinkClass::Inter)] += price.seconds(LinkClass::Inter) * share;
    time.byAxis[axis] += seconds;
}

bool isParameter(const Graph& graph, TensorId id)
{
    const Tensor& tensor = graph.tensor(id);
    if (tensor.role != TensorRole::Initializer)
        return false;
    const Initializer& init = graph.initializer(tensor.initializer);
    return isFloatingPoint(init.dtype) && !init.dims.empty();
}

}  // namespace

CostModel::CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                     const Cluster& cluster, const DeviceMesh& mesh, const Workload& workload)
    : graph_(graph),
      coarse_(coarse),
      families_(families),
      cluster_(cluster),
      mesh_(mesh),
      workload_(workload),
      binder_(graph, workload),
      collectives_(cluster),
      dtypeBytes_(dataTypeBits(workload.computeType) / 8.0)
{
    computeOpFacts();
    computeNodeFacts();
    computeCrossingTensors();
}

void CostModel::computeOpFacts()
{
    opFacts_.assign(graph_.opCount(), {});
    auto activationBytes = [&](TensorId id) {
        if (!id.isValid())
            return 0.0;
        const Tensor& tensor = graph_.tensor(id);
        const bool auxiliary = tensor.role == TensorRole::Initializer ||
                               (tensor.producer.isValid() && coarse_.roles[tensor.producer.index()] == OpRole::Auxiliary);
        return auxiliary || !tensor.shape.isRankKnown() ? 0.0 : binder_.elementCount(tensor.shape) * dtypeBytes_;
    };
    for (const Op& op : graph_.ops()) {
        const OpRole role = coarse_.roles[op.id.index()];
        OpFacts& facts = opFacts_[op.id.index()];
        if (role == OpRole::Auxiliary)
            continue;
        const TensorShape& out = op.outputs.empty() || !op.outputs[0].isValid() ? TensorShape{}
                                                                                 : graph_.tensor(op.outputs[0]).shape;
        if (role == OpRole::Linear || role == OpRole::BatchedMatMul) {
            const std::vector<std::int64_t> a = binder_.extents(graph_.tensor(op.inputs[0]).shape);
            std::int64_t k = a.empty() ? 1 : a.back();
            if (op.type == "Gemm") {
                const Attribute* transA = op.findAttribute("transA");
                if (transA && std::get_if<std::int64_t>(&transA->value) && std::get<std::int64_t>(transA->value) != 0 &&
                    !a.empty())
                    k = a.front();
            }
            facts.flops = 2.0 * binder_.elementCount(out) * static_cast<double>(k);
        } else if (role == OpRole::Conv) {
            const Tensor& weight = graph_.tensor(op.inputs[1]);
            const auto extents = binder_.extents(weight.shape);
            double perOutput = 1;
            for (std::size_t i = 1; i < extents.size(); ++i)
                perOutput *= static_cast<double>(extents[i]);
            facts.flops = 2.0 * binder_.elementCount(out) * perOutput;
        } else {
            double bytes = 0;
            if (role != OpRole::Embedding) {
                for (const TensorId input : op.inputs)
                    bytes += activationBytes(input);
            }
            for (const TensorId output : op.outputs)
                bytes += activationBytes(output);
            facts.memoryBoundBytes = bytes;
        }
    }
}

void CostModel::computeNodeFacts()
{
    nodeFacts_.assign(coarse_.nodes.size(), {});
    std::vector<bool> savedBefore(graph_.tensors().size(), false);
    for (const CoarseNode& node : coarse_.nodes) {
        NodeFacts& facts = nodeFacts_[node.id.index()];
        facts.costOp = node.anchor.isValid()      ? node.anchor
                       : !node.ops.empty()        ? node.ops.front()
                                                  : node.auxiliaryOps.front();
        // Parameters: initializers the node's ops read, directly or through auxiliary
        // ops (transposed or Identity-copied weights), each once.
        std::set<TensorId> seen;
        std::vector<TensorId> pending;
        for (const OpId id : node.ops) {
            const Op& op = graph_.op(id);
            for (const TensorId input : op.inputs) {
                if (input.isValid())
                    pending.push_back(input);
            }
            facts.memoryBoundBytes += opFacts_[id.index()].memoryBoundBytes;
            if (op.type == "Softmax" && op.outputs[0].isValid())
                facts.savedActivations.emplace_back(op.outputs[0], binder_.elementCount(graph_.tensor(op.outputs[0]).shape) * dtypeBytes_);
        }
        while (!pending.empty()) {
            const TensorId id = pending.back();
            pending.pop_back();
            if (!seen.insert(id).second)
                continue;
            const Tensor& tensor = graph_.tensor(id);
            if (isParameter(graph_, id)) {
                facts.parameterElements += static_cast<double>(graph_.initializer(tensor.initializer).elementCount);
            } else if (tensor.producer.isValid() && coarse_.roles[tensor.producer.index()] == OpRole::Auxiliary) {
                for (const TensorId input : graph_.op(tensor.producer).inputs) {
                    if (input.isValid())
                        pending.push_back(input);
                }
            }
        }
        auto bytesOf = [&](TensorId id) {
            return id.isValid() && graph_.tensor(id).shape.isRankKnown()
                       ? binder_.elementCount(graph_.tensor(id).shape) * dtypeBytes_
                       : 0.0;
        };
        if (node.anchor.isValid()) {
            const Op& anchor = graph_.op(node.anchor);
            facts.flops = opFacts_[node.anchor.index()].flops;
            facts.transientBytes = bytesOf(anchor.outputs[0]);
            if (node.kind == CoarseNodeKind::BatchedMatMul) {
                facts.savedActivations.emplace_back(anchor.inputs[0], bytesOf(anchor.inputs[0]));
                facts.savedActivations.emplace_back(anchor.inputs[1], bytesOf(anchor.inputs[1]));
            } else if (node.kind != CoarseNodeKind::Embedding) {
                // The activation operand: whichever input is not a (derived) constant.
                for (const TensorId input : anchor.inputs) {
                    if (!input.isValid())
                        continue;
                    const Tensor& t = graph_.tensor(input);
                    const bool constant = t.role == TensorRole::Initializer ||
                                          (t.producer.isValid() && coarse_.roles[t.producer.index()] == OpRole::Auxiliary);
                    if (!constant) {
                        facts.savedActivations.emplace_back(input, bytesOf(input));
                        break;
                    }
                }
            }
        } else if (node.kind == CoarseNodeKind::Normalization && !node.ops.empty()) {
            const TensorId input = graph_.op(node.ops.front()).inputs.front();
            facts.savedActivations.emplace_back(input, bytesOf(input));
        }
        // A tensor is kept once, by the first node (in node order) that saves it.
        std::erase_if(facts.savedActivations, [&](const auto& saved) {
            const bool duplicate = !saved.first.isValid() || savedBefore[saved.first.index()];
            if (saved.first.isValid())
                savedBefore[saved.first.index()] = true;
            return duplicate;
        });
    }
}

void CostModel::computeCrossingTensors()
{
    // Which activations carry gradients: those downstream of a parameter.
    std::vector<bool> carries(graph_.tensors().size(), false);
    std::vector<bool> readsParameter(graph_.opCount(), false);
    for (const OpId id : graph_.topologicalOrder()) {
        const Op& op = graph_.op(id);
        if (coarse_.roles[id.index()] == OpRole::Auxiliary) {
            for (const TensorId input : op.inputs) {
                if (input.isValid() && (isParameter(graph_, input) || carries[input.index()]))
                    readsParameter[id.index()] = true;
            }
            continue;
        }
        bool flows = false;
        for (const TensorId input : op.inputs) {
            if (!input.isValid())
                continue;
            const Tensor& tensor = graph_.tensor(input);
            const bool viaAuxiliary = tensor.producer.isValid() &&
                                      coarse_.roles[tensor.producer.index()] == OpRole::Auxiliary &&
                                      readsParameter[tensor.producer.index()];
            flows = flows || isParameter(graph_, input) || viaAuxiliary || carries[input.index()];
        }
        for (const TensorId output : op.outputs) {
            if (output.isValid())
                carries[output.index()] = flows;
        }
    }

    for (const CoarseNode& node : coarse_.nodes) {
        for (const OpId id : node.ops) {
            for (const TensorId output : graph_.op(id).outputs) {
                if (!output.isValid())
                    continue;
                CrossingTensor crossing;
                for (const OpId consumer : graph_.tensor(output).consumers) {
                    if (coarse_.roles[consumer.index()] == OpRole::Auxiliary)
                        continue;
                    const CoarseNodeId target = coarse_.nodeOf[consumer.index()];
                    if (target == node.id)
                        continue;
                    const bool known = std::any_of(crossing.consumers.begin(), crossing.consumers.end(),
                                                   [&](const auto& c) { return c.first == target; });
                    if (!known)
                        crossing.consumers.emplace_back(target, consumer);
                }
                if (crossing.consumers.empty())
                    continue;
                const Tensor& tensor = graph_.tensor(output);
                crossing.bytes = tensor.shape.isRankKnown() ? binder_.elementCount(tensor.shape) * dtypeBytes_ : 0.0;
                crossing.carriesGradient = carries[output.index()];
                crossing.producer = node.id;
                crossing.producerOp = id;
                crossing_.push_back(std::move(crossing));
            }
        }
    }
}

double CostModel::hbmBytes() const
{
    return static_cast<double>(cluster_.gpu.hbmBytes);
}

CostModel::Divisors CostModel::divisorsOf(CoarseNodeKind kind, const NodeStrategy& strategy) const
{
    Divisors div;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        const AxisSplit split = strategy.axes[a];
        const double n = mesh_.axis(a).size;
        if (split != AxisSplit::None)
            div.compute *= n;
        if (splitsWeights(split) || split == AxisSplit::Hidden)
            div.weights *= n;
        if (synchronizesGradients(split))
            div.data *= n;
        if (isSharded(requiredInputLayout(kind, split)))
            div.input *= n;
        if (isSharded(outputLayout(split)))
            div.output *= n;
    }
    return div;
}

std::optional<CostModel::PricedConversion> CostModel::conversion(const CrossingTensor& tensor, std::size_t axis,
                                                                 const NodeStrategy& producer, AxisLayout from,
                                                                 AxisLayout to) const
{
    const std::optional<Conversion> needed = conversionBetween(from, to);
    const double n = mesh_.axis(axis).size;
    if (!needed || n <= 1)
        return std::nullopt;
    // The other axes shard the tensor as its producer left it.
    double otherDiv = 1;
    for (std::size_t b = 0; b < producer.axes.size(); ++b) {
        if (b != axis && isSharded(outputLayout(producer.axes[b])))
            otherDiv *= mesh_.axis(b).size;
    }
    const double full = tensor.bytes / otherDiv;
    const double bytes = needed->perShard ? full / n : full;
    return PricedConversion{needed->kind, collectives_.price(needed->kind, mesh_.group(axis), bytes)};
}

double CostModel::conversionSeconds(const CrossingTensor& tensor, std::size_t axis, const NodeStrategy& producer,
                                    AxisLayout from, AxisLayout to) const
{
    const auto priced = conversion(tensor, axis, producer, from, to);
    return priced ? priced->price.seconds() : 0.0;
}

CostModel::StrategyTerms CostModel::strategyTerms(CoarseNodeId id, const NodeStrategy& strategy) const
{
    const CoarseNode& node = coarse_.node(id);
    const NodeFacts& facts = nodeFacts_[id.index()];
    const Divisors div = divisorsOf(node.kind, strategy);
    StrategyTerms terms;
    const double flopsPerSecond = cluster_.gpu.peakFlopsPerSecond * cluster_.gpu.achievableFraction;
    terms.computeSeconds =
        (3.0 * facts.flops / flopsPerSecond + 3.0 * facts.memoryBoundBytes / cluster_.gpu.hbmBytesPerSecond) /
        div.compute;
    const double localParameters = facts.parameterElements / div.weights;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        if (!synchronizesGradients(strategy.axes[a]) || localParameters <= 0 || mesh_.axis(a).size <= 1)
            continue;
        // Bandwidth term per byte, read off a large message where latency is negligible.
        constexpr double kReferenceBytes = 1e12;
        const double perByte =
            collectives_.price(CollectiveKind::AllReduce, mesh_.group(a), kReferenceBytes).seconds() / kReferenceBytes;
        terms.gradientSyncSeconds += perByte * localParameters * dtypeBytes_;
    }
    double activations = 0;
    for (const auto& saved : facts.savedActivations)
        activations += saved.second;
    terms.memoryBytes = localParameters * (2 * dtypeBytes_ + optimizerStateBytesPerParameter(workload_.optimizer) /
                                                                (workload_.zero1 ? div.data : 1.0)) +
                        activations / div.input;
    return terms;
}

PlanEvaluation CostModel::evaluate(const Plan& plan) const
{
    validatePlan(plan, coarse_);
    const std::size_t axisCount = mesh_.axisCount();
    if (plan.mesh.size() != axisCount)
        throw Error(ErrorCode::InvalidPlan, {}, "plan '" + plan.name + "' is for a mesh of " +
                                                    std::to_string(plan.mesh.size()) + " axes, not " + mesh_.toString());
    for (std::size_t a = 0; a < axisCount; ++a) {
        if (plan.mesh[a].size != mesh_.axis(a).size)
            throw Error(ErrorCode::InvalidPlan, {},
                        "plan '" + plan.name + "' sizes mesh axis '" + plan.mesh[a].name + "' " +
                            std::to_string(plan.mesh[a].size) + ", the mesh is " + mesh_.toString());
    }
    std::vector<double> axisSize(axisCount);
    for (std::size_t a = 0; a < axisCount; ++a)
        axisSize[a] = mesh_.axis(a).size;

    PlanEvaluation result;
    result.hbmBytes = hbmBytes();
    CostBreakdown empty;
    empty.time.byAxis.assign(axisCount, 0.0);
    result.perOp.assign(graph_.opCount(), empty);

    const double flopsPerSecond = cluster_.gpu.peakFlopsPerSecond * cluster_.gpu.achievableFraction;
    const double optimizerBytes = optimizerStateBytesPerParameter(workload_.optimizer);
    std::vector<double> syncBytes(axisCount, 0.0);
    std::vector<std::vector<std::pair<OpId, double>>> syncShares(axisCount);
    double largestTransient = -1;
    OpId transientOp;

    for (const CoarseNode& node : coarse_.nodes) {
        const NodeStrategy& strategy = plan.strategy(node.id);
        const NodeFacts& facts = nodeFacts_[node.id.index()];
        const Divisors div = divisorsOf(node.kind, strategy);
        // Compute, op by op: the anchor's flops and every op's memory traffic.
        for (const OpId id : node.ops) {
            const OpFacts& op = opFacts_[id.index()];
            result.perOp[id.index()].time.computeSeconds +=
                (3.0 * op.flops / flopsPerSecond + 3.0 * op.memoryBoundBytes / cluster_.gpu.hbmBytesPerSecond) /
                div.compute;
        }
        CostBreakdown& own = result.perOp[facts.costOp.index()];
        const double localParameters = facts.parameterElements / div.weights;
        own.memory.parameters += localParameters * dtypeBytes_;
        own.memory.gradients += localParameters * dtypeBytes_;
        own.memory.optimizerStates += localParameters * optimizerBytes / (workload_.zero1 ? div.data : 1.0);
        for (const auto& saved : facts.savedActivations)
            own.memory.activations += saved.second / div.input;
        if (facts.transientBytes / div.output > largestTransient) {
            largestTransient = facts.transientBytes / div.output;
            transientOp = facts.costOp;
        }
        for (std::size_t a = 0; a < axisCount; ++a) {
            if (synchronizesGradients(strategy.axes[a]) && localParameters > 0 && axisSize[a] > 1) {
                const double bytes = localParameters * dtypeBytes_;
                syncBytes[a] += bytes;
                syncShares[a].emplace_back(facts.costOp, bytes);
            }
        }
    }
    if (transientOp.isValid())
        result.perOp[transientOp.index()].memory.transient += largestTransient;

    // Gradient synchronization: one bucketed AllReduce per axis.
    for (std::size_t a = 0; a < axisCount; ++a) {
        if (syncBytes[a] <= 0)
            continue;
        const CollectiveBreakdown price = collectives_.price(CollectiveKind::AllReduce, mesh_.group(a), syncBytes[a]);
        for (const auto& [op, bytes] : syncShares[a])
            addCollective(result.perOp[op.index()].time, CollectiveKind::AllReduce, a, price, bytes / syncBytes[a]);
    }

    // Resharding of tensors between coarse nodes, forward and backward.
    for (const CrossingTensor& tensor : crossing_) {
        const NodeStrategy& producer = plan.strategy(tensor.producer);
        for (std::size_t a = 0; a < axisCount; ++a) {
            if (axisSize[a] <= 1)
                continue;
            const AxisLayout produced = outputLayout(producer.axes[a]);
            auto charge = [&](AxisLayout from, AxisLayout to, OpId at) {
                if (const auto priced = conversion(tensor, a, producer, from, to))
                    addCollective(result.perOp[at.index()].time, priced->kind, a, priced->price);
            };
            std::vector<AxisLayout> forward;
            std::vector<AxisLayout> backward;
            for (const auto& [consumer, consumerOp] : tensor.consumers) {
                const CoarseNode& node = coarse_.node(consumer);
                const AxisSplit split = plan.strategy(consumer).axes[a];
                const AxisLayout needed = requiredInputLayout(node.kind, split);
                if (std::find(forward.begin(), forward.end(), needed) == forward.end()) {
                    forward.push_back(needed);
                    charge(produced, needed, consumerOp);
                }
                if (!tensor.carriesGradient)
                    continue;
                const AxisLayout gradient = inputGradientLayout(node.kind, split);
                if (std::find(backward.begin(), backward.end(), gradient) == backward.end()) {
                    backward.push_back(gradient);
                    // Gradients of one tensor from several consumers are summed first,
                    // so each distinct layout converts once.
                    const AxisLayout target = produced == AxisLayout::Partial ? AxisLayout::Replicated : produced;
                    charge(gradient, target, tensor.producerOp);
                }
            }
        }
    }

    // Aggregate upwards in a fixed order so that the parts add up to the totals.
    result.perNode.assign(coarse_.nodes.size(), empty);
    for (const CoarseNode& node : coarse_.nodes) {
        CostBreakdown& sum = result.perNode[node.id.index()];
        for (const OpId id : node.ops)
            sum.add(result.perOp[id.index()]);
        for (const OpId id : node.auxiliaryOps)
            sum.add(result.perOp[id.index()]);
    }
    result.total = empty;
    for (const CostBreakdown& node : result.perNode)
        result.total.add(node);
    result.perFamily.assign(families_.families.size(), empty);
    for (const Family& family : families_.families) {
        for (const BlockInstance& instance : family.instances) {
            for (const CoarseNodeId id : instance.nodes)
                result.perFamily[family.id.index()].add(result.perNode[id.index()]);
        }
    }
    return result;
}

}  // namespace tapestry
