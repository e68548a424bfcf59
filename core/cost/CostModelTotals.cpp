// CostModel::evaluateTotals: a uniform plan priced one class of interchangeable nodes
// and tensors at a time (cost/PricingClasses.h).
#include "cost/CostModel.h"

#include "cost/GradientsAtPeak.h"
#include "cost/PricingClasses.h"
#include "graph/Graph.h"
#include "plan/ParallelDegrees.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <tuple>

namespace tapestry {

struct CostModel::LazyClasses {
    std::once_flag built;
    PricingClasses classes;
    // Per tensor class, its member with the consumers that may convert it only
    // (PricingClasses::TensorClass::converting).
    std::vector<CrossingTensor> converting;
};

std::shared_ptr<CostModel::LazyClasses> CostModel::noClassesYet()
{
    return std::make_shared<LazyClasses>();
}

void CostModel::pricedFacts(CoarseNodeId id, std::vector<double>& into) const
{
    const CoarseNode& node = coarse_.node(id);
    const NodeFacts& f = bound_->nodes[id.index()];
    into.insert(into.end(), {static_cast<double>(node.kind), f.flops, f.transientBytes, f.ringBytes,
                             static_cast<double>(f.savedActivations.size())});
    for (const SavedActivation& saved : f.savedActivations)
        into.insert(into.end(), {saved.asOutput ? 1.0 : 0.0, saved.scores ? 1.0 : 0.0,
                                 saved.castUnderTensorParallelism ? 1.0 : 0.0});
    into.push_back(static_cast<double>(node.ops.size()));
    for (const OpId op : node.ops) {
        const OpFacts& o = bound_->ops[op.index()];
        into.insert(into.end(), {o.flops, o.inputBytes, o.weightBytes, o.outputBytes, o.scores ? 1.0 : 0.0, o.keys,
                                 o.attentionOutput ? 1.0 : 0.0, static_cast<double>(coarse_.roles[op.index()])});
    }
    laterFacts(id, into);
}

namespace {

// The facts set after binding that pricing classes compare, one list per kind of fact:
// laterFacts writes them out and copiedAlike compares them in place, so the two cannot
// drift apart (a fact left out of one would merge classes that price differently). Each
// entry is a member or a function of the facts (std::invoke reads either).
template <class Node>
auto laterNodeFields(const std::vector<double>& blockParameterElements)
{
    const auto blockParameters = [elements = &blockParameterElements](const Node& f) {
        return f.block >= 0 ? (*elements)[static_cast<std::size_t>(f.block)] : -1.0;
    };
    return std::tuple{&Node::memoryBoundBytes,
                      &Node::parameterElements,
                      &Node::parameterTensors,
                      &Node::tiedParameterElements,
                      &Node::blockInputBytes,
                      &Node::experts,
                      &Node::routedShare,
                      &Node::modelShare,
                      &Node::fp8,
                      [](const Node& f) { return f.block >= 0; },
                      blockParameters,
                      &Node::linearOrdinal,
                      &Node::pastReplayStop};
}

template <class Saved>
constexpr auto laterSavedFields()
{
    return std::tuple{&Saved::bytes, &Saved::castBytes};  // FP8 keeps some as 8-bit copies
}

template <class Op>
constexpr auto laterOpFields()
{
    return std::tuple{&Op::memoryBoundBytes,  // less what experts do not route
                      &Op::memoryBoundBackwardBytes,
                      &Op::forwardKernels,  // eager launches (EagerLaunchFloor.h)
                      &Op::backwardKernels};
}

template <class Output>
constexpr auto laterOutputFields()
{
    return std::tuple{&Output::bytes, &Output::rows};
}

template <class Fields, class Facts>
void appendFields(const Fields& fields, const Facts& facts, std::vector<double>& into)
{
    std::apply([&](const auto&... field) { (into.push_back(static_cast<double>(std::invoke(field, facts))), ...); },
               fields);
}

template <class Fields, class Facts>
bool sameFields(const Fields& fields, const Facts& x, const Facts& y)
{
    return std::apply([&](const auto&... field) { return ((std::invoke(field, x) == std::invoke(field, y)) && ...); },
                      fields);
}

}  // namespace

void CostModel::laterFacts(CoarseNodeId id, std::vector<double>& into) const
{
    const NodeFacts& f = bound_->nodes[id.index()];
    appendFields(laterNodeFields<NodeFacts>(bound_->blockParameterElements), f, into);
    for (const SavedActivation& saved : f.savedActivations)
        appendFields(laterSavedFields<SavedActivation>(), saved, into);
    for (const OpId op : coarse_.node(id).ops)
        appendFields(laterOpFields<OpFacts>(), bound_->ops[op.index()], into);
    for (const ModelOutput& output : bound_->outputs) {
        if (output.producer == id) {
            into.push_back(-2.0);
            appendFields(laterOutputFields<ModelOutput>(), output, into);
        }
    }
}

bool CostModel::copiedAlike(CoarseNodeId a, CoarseNodeId b, std::vector<double>& scratchA,
                            std::vector<double>& scratchB) const
{
    if (bound_->copiedFrom[a.index()] != b)
        return false;
    // laterFacts(a) == laterFacts(b), compared in place where the two are laid out alike
    // (as many saved activations, ops and model outputs: a copy of `b` has them), without
    // writing them out: a deep model's classes compare every repeating node so.
    const NodeFacts& x = bound_->nodes[a.index()];
    const NodeFacts& y = bound_->nodes[b.index()];
    const std::vector<OpId>& xOps = coarse_.node(a).ops;
    const std::vector<OpId>& yOps = coarse_.node(b).ops;
    if (x.savedActivations.size() != y.savedActivations.size() || xOps.size() != yOps.size()) {
        scratchA.clear();
        scratchB.clear();
        laterFacts(a, scratchA);
        laterFacts(b, scratchB);
        return scratchA == scratchB;
    }
    if (!sameFields(laterNodeFields<NodeFacts>(bound_->blockParameterElements), x, y))
        return false;
    for (std::size_t s = 0; s < x.savedActivations.size(); ++s) {
        if (!sameFields(laterSavedFields<SavedActivation>(), x.savedActivations[s], y.savedActivations[s]))
            return false;
    }
    for (std::size_t o = 0; o < xOps.size(); ++o) {
        if (!sameFields(laterOpFields<OpFacts>(), bound_->ops[xOps[o].index()], bound_->ops[yOps[o].index()]))
            return false;
    }
    // The model outputs each makes, in order.
    auto xOutput = bound_->outputs.begin();
    auto yOutput = bound_->outputs.begin();
    const auto nextOf = [&](auto from, CoarseNodeId id) {
        return std::find_if(from, bound_->outputs.end(), [&](const ModelOutput& output) { return output.producer == id; });
    };
    for (;;) {
        xOutput = nextOf(xOutput, a);
        yOutput = nextOf(yOutput, b);
        if (xOutput == bound_->outputs.end() || yOutput == bound_->outputs.end())
            return xOutput == yOutput;
        if (!sameFields(laterOutputFields<ModelOutput>(), *xOutput, *yOutput))
            return false;
        ++xOutput;
        ++yOutput;
    }
}

const PricingClasses& CostModel::pricingClasses() const
{
    std::call_once(classes_->built, [&] {
        // Which crossing tensor each op's outputs leave through: a saved tensor crossing
        // into a node is kept as its maker's output layout shards it.
        std::vector<CoarseNodeId> makerOfOp(graph_.opCount());
        CrossingEnds ends;
        ends.producers.reserve(bound_->crossing.size());
        ends.facts.reserve(bound_->crossing.size());
        ends.consumerStart.reserve(bound_->crossing.size() + 1);
        for (const CrossingTensor& tensor : bound_->crossing) {
            makerOfOp[tensor.producerOp.index()] = tensor.producer;
            ends.add(tensor.producer, {tensor.bytes, tensor.repeat, tensor.heads, tensor.carriesGradient ? 1.0 : 0.0,
                                       tensor.insideBlock ? 1.0 : 0.0, static_cast<double>(tensor.experts),
                                       tensor.expertTokens, tensor.routedCopies});
            for (const auto& consumer : tensor.consumers)
                ends.addConsumer(consumer.first);
        }
        const auto makers = [&](CoarseNodeId id, std::vector<CoarseNodeId>& into) {
            for (const SavedActivation& saved : bound_->nodes[id.index()].savedActivations) {
                const OpId producer = graph_.tensor(saved.tensor).producer;
                into.push_back(producer.isValid() ? makerOfOp[producer.index()] : CoarseNodeId{});
            }
        };
        std::vector<double> scratchA;
        std::vector<double> scratchB;
        classes_->classes = buildPricingClasses(
            coarse_, families_, [&](CoarseNodeId id, std::vector<double>& into) { pricedFacts(id, into); },
            [&](CoarseNodeId a, CoarseNodeId b) { return copiedAlike(a, b, scratchA, scratchB); }, makers, ends);
        for (const PricingClasses::TensorClass& tensorClass : classes_->classes.tensors) {
            CrossingTensor tensor = bound_->crossing[tensorClass.tensor];
            tensor.consumers.clear();
            for (const std::size_t c : tensorClass.converting)
                tensor.consumers.push_back(bound_->crossing[tensorClass.tensor].consumers[c]);
            classes_->converting.push_back(std::move(tensor));
        }
    });
    return classes_->classes;
}

void CostModel::evaluateTotals(const Plan& plan, PlanEvaluation& result) const
{
    const PricingClasses& classes = pricingClasses();
    if (plan.strategies.size() != coarse_.nodes.size() || !classes.uniform(plan)) {
        evaluate(plan, result);  // checks the plan (and throws) or prices it node by node
        return;
    }
    evaluateByClasses(plan, result);
}

std::optional<UniformPlan> CostModel::uniformPlan(Plan plan) const
{
    const PricingClasses& classes = pricingClasses();
    if (plan.strategies.size() != coarse_.nodes.size() || !classes.uniform(plan))
        return std::nullopt;
    return UniformPlan(std::move(plan), std::shared_ptr<const PricingClasses>(classes_, &classes));
}

std::optional<CostModel::BlockCosts> CostModel::blockCosts(const Plan& plan) const
{
    const PricingClasses& classes = pricingClasses();
    if (plan.strategies.size() != coarse_.nodes.size() || !classes.uniform(plan))
        return std::nullopt;
    ClassCosts costs = costsByClass(plan);
    BlockCosts out;
    for (const std::size_t kind : classes.kindOfBlock)
        out.blocks.push_back(costs.kinds[kind]);
    out.before = std::move(costs.before);
    out.after = std::move(costs.after);
    for (const auto& [charge, place] : classes.spreadCharges) {
        CostBreakdown& at = place == PricingClasses::kBefore  ? out.before
                            : place == PricingClasses::kAfter ? out.after
                                                              : out.blocks[place];
        at.add(costs.charges[charge.tensorClass][static_cast<std::size_t>(charge.consumer + 1)]);
    }
    out.transient = costs.transient;
    return out;
}

void CostModel::evaluateTotals(const UniformPlan& plan, PlanEvaluation& result) const
{
    if (plan.checkedBy_.get() == &pricingClasses())
        evaluateByClasses(plan.plan(), result);
    else
        evaluateTotals(plan.plan(), result);
}

double CostModel::memoryFloorBytes(const UniformPlan& plan) const
{
    const PricingClasses& classes = pricingClasses();
    if (pipeline_.layout.stages > 1 || plan.checkedBy_.get() != &classes)
        return 0;
    // A class's members take its member's strategy in a uniform plan and price alike.
    const bool gradientsAtPeak = workload_.gradientLifetime == GradientLifetime::FreedBetweenSteps;
    double states = 0;
    double gradients = 0;
    double activations = 0;
    for (const PricingClasses::NodeClass& members : classes.nodes) {
        activations += members.count * activationFloorBytes(members.node);
        if (bound_->nodes[members.node.index()].parameterElements == 0)
            continue;  // no states
        const StateFloors own = stateFloors(members.node, plan.plan().strategy(members.node));
        states += members.count * (gradientsAtPeak ? own.states : own.states + own.gradients);
        gradients += members.count * own.gradients;
    }
    return peakFloorBytes(states, gradients, activations, gradientsAtPeak);
}

CostModel::ClassCosts CostModel::costsByClass(const Plan& plan) const
{
    const PricingClasses& classes = pricingClasses();
    // Every node repeats its class's strategy (uniform, classes of one kind and facts).
    checkPlan(plan, &classes.members);
    const std::size_t axisCount = mesh_->axisCount();

    // The plan's stepping (steppingOf) over the classes.
    BatchWork work{0, std::vector<double>(axisCount, 0.0)};
    for (const PricingClasses::NodeClass& c : classes.nodes)
        addBatchWork(work, c.node, plan.strategy(c.node), c.count);
    ClassCosts out;
    out.steps = steppingOf(work);
    const Stepping& steps = out.steps;
    CostBreakdown empty;
    empty.time.byAxis.assign(axisCount, 0.0);
    const auto divisorOf = [&](CoarseNodeId id) {
        return divisorsOf(coarse_.node(id).kind, plan.strategy(id), steps);
    };
    std::vector<CostBreakdown> nodeCost(classes.nodes.size(), empty);
    std::vector<NodeShare> shares(classes.nodes.size());
    std::vector<double> overlappable(classes.nodes.size(), 0.0);
    StepSums sums;
    double largestOutside = -1;  // the largest transient buffer outside the blocks
    double largestInside = -1;   // and inside one
    // Gradient buckets of ZeRO 0/1, each class's share at its index.
    std::vector<GradientBucket> buckets;
    for (std::size_t k = 0; k < classes.nodes.size(); ++k) {
        const PricingClasses::NodeClass& c = classes.nodes[k];
        const CoarseNode& node = coarse_.node(c.node);
        double consumedDiv = 0;
        for (const CoarseNodeId reader : c.readers) {
            const double input = divisorOf(reader).input;
            consumedDiv = consumedDiv == 0 ? input : std::min(consumedDiv, input);
        }
        StepSums own;
        shares[k] = priceNode(
            node, plan.strategy(c.node), divisorOf(c.node), consumedDiv,
            [&](std::size_t s) { return c.savedMakers[s].isValid() ? divisorOf(c.savedMakers[s]).output : 1.0; },
            steps, [&](OpId) -> CostBreakdown& { return nodeCost[k]; }, own, nullptr);
        sums.forwardCompute += c.count * own.forwardCompute;
        sums.backwardCompute += c.count * own.backwardCompute;
        sums.shardedForward += c.count * own.shardedForward;
        sums.shardedBackward += c.count * own.shardedBackward;
        overlappable[k] = shares[k].overlappable;
        double& largestTransient = bound_->nodes[c.node.index()].block >= 0 ? largestInside : largestOutside;
        largestTransient = std::max(largestTransient, shares[k].transient);
        addGradients(buckets, plan.strategy(c.node), shares[k].localParameters, k, c.count, steps);
    }
    // Gradient synchronization (ZeRO 0/1): one bucketed AllReduce per group of data axes
    // and step.
    const double gradientSync = chargeGradients(
        buckets, [&](std::size_t k) -> TimeBreakdown& { return nodeCost[k].time; }, overlappable);
    double overlappableTotal = 0;
    for (std::size_t k = 0; k < classes.nodes.size(); ++k)
        overlappableTotal += classes.nodes[k].count * overlappable[k];
    if (const double hidden = hiddenShare(gradientSync, overlappableTotal, sums, steps); hidden > 0) {
        for (std::size_t k = 0; k < classes.nodes.size(); ++k)
            nodeCost[k].time.hiddenSeconds += overlappable[k] * hidden;
    }

    // Resharding of tensors between coarse nodes: each class's charges, per consumer.
    std::vector<bool> ulyssesAxis(axisCount);
    for (std::size_t a = 0; a < axisCount; ++a)
        ulyssesAxis[a] = contextParallelVariant(plan, coarse_, a, classes.members) == ContextParallelVariant::Ulysses;
    std::vector<std::vector<CostBreakdown>>& charges = out.charges;
    charges.resize(classes.tensors.size());
    for (std::size_t t = 0; t < classes.tensors.size(); ++t) {
        // Only the consumers that may convert it are priced; each charge lands at its
        // consumer's index among all of the tensor's.
        const std::vector<std::size_t>& converting = classes.tensors[t].converting;
        charges[t].assign(bound_->crossing[classes.tensors[t].tensor].consumers.size() + 1, empty);
        priceCrossing(classes_->converting[t], plan, ulyssesAxis, steps,
                      [&](int slot) -> CostBreakdown& {
                          return charges[t][slot < 0 ? 0 : converting[static_cast<std::size_t>(slot)] + 1];
                      },
                      nullptr);
    }

    // Each place's costs: the blocks of one kind alike.
    const auto placeCost = [&](const PricingClasses::Place& place) {
        CostBreakdown sum = empty;
        for (const std::size_t k : place.nodeClasses)
            sum.add(nodeCost[k]);
        for (const PricingClasses::Charge& charge : place.charges)
            sum.add(charges[charge.tensorClass][static_cast<std::size_t>(charge.consumer + 1)]);
        return sum;
    };
    double blockGathered = 0;
    double blockActivation = 0;
    for (const PricingClasses::Place& kind : classes.blockKinds) {
        out.kinds.push_back(placeCost(kind));
        double gathered = 0;
        double activation = 0;
        for (const std::size_t k : kind.nodeClasses) {
            gathered += shares[k].blockGatheredBytes;
            activation += shares[k].blockActivationBytes;
        }
        blockGathered = std::max(blockGathered, gathered);
        blockActivation = std::max(blockActivation, activation);
    }
    out.before = placeCost(classes.before);
    out.after = placeCost(classes.after);
    out.transient = largestOutside < 0 && largestInside < 0
                        ? 0.0
                        : transientWithBlocks(std::max(largestOutside, 0.0), std::max(largestInside, 0.0), blockGathered,
                                              blockActivation);
    return out;
}

void CostModel::evaluateByClasses(const Plan& plan, PlanEvaluation& result) const
{
    const PricingClasses& classes = pricingClasses();
    const ClassCosts costs = costsByClass(plan);
    const Stepping& steps = costs.steps;
    const std::vector<CostBreakdown>& kindCost = costs.kinds;
    const CostBreakdown& before = costs.before;
    const CostBreakdown& after = costs.after;
    const double transient = costs.transient;
    const std::size_t axisCount = mesh_->axisCount();
    result = PlanEvaluation{};
    result.totalsOnly = true;
    result.hbmBytes = hbmBytes();
    result.microBatches = steps.microSteps;
    result.dataParallelDegree = steps.dataParallel;
    CostBreakdown empty;
    empty.time.byAxis.assign(axisCount, 0.0);

    const auto spreadCost = [&](const PricingClasses::Charge& charge) -> const CostBreakdown& {
        return costs.charges[charge.tensorClass][static_cast<std::size_t>(charge.consumer + 1)];
    };
    if (!plan.pipeline.active()) {
        result.total = empty;
        result.total.add(before);
        for (std::size_t kind = 0; kind < kindCost.size(); ++kind)
            result.total.add(kindCost[kind], classes.kindCount[kind]);
        result.total.add(after);
        for (const auto& [charge, place] : classes.spreadCharges)
            result.total.add(spreadCost(charge));
        result.total.memory.transient += transient;
        if (workload_.gradientLifetime == GradientLifetime::FreedBetweenSteps && steps.microSteps == 1)
            result.total.memory.gradients *=
                gradientShareAtPeak(result.total.memory.gradients, result.total.memory.activations);
        return;
    }
    // Pipeline stages: the kinds of the blocks each stage runs.
    const std::size_t p = static_cast<std::size_t>(plan.pipeline.stages);
    const std::size_t blockCount = classes.kindOfBlock.size();
    const std::vector<std::size_t> starts = chunkStarts(plan.pipeline, blockCount);
    std::vector<std::vector<double>> kindsOnStage(p, std::vector<double>(kindCost.size(), 0.0));
    std::vector<std::size_t> stageOfBlock(blockCount);
    for (std::size_t c = 0; c < starts.size(); ++c) {
        const std::size_t end = c + 1 < starts.size() ? starts[c + 1] : blockCount;
        for (std::size_t b = starts[c]; b < end; ++b) {
            kindsOnStage[c % p][classes.kindOfBlock[b]] += 1;
            stageOfBlock[b] = c % p;
        }
    }
    const std::size_t lastStage = (starts.size() - 1) % p;
    const double m = steps.microSteps;
    std::vector<StageNodes> stages(p);
    for (std::size_t s = 0; s < p; ++s) {
        stages[s].time.byAxis.assign(axisCount, 0.0);
        if (s == 0)
            stages[s].add(before, m);
        for (std::size_t kind = 0; kind < kindCost.size(); ++kind) {
            if (kindsOnStage[s][kind] > 0)
                stages[s].add(kindCost[kind], m, kindsOnStage[s][kind]);
        }
    }
    stages[lastStage].add(after, m);
    for (const auto& [charge, place] : classes.spreadCharges) {
        const std::size_t stage = place == PricingClasses::kBefore  ? 0
                                  : place == PricingClasses::kAfter ? lastStage
                                                                    : stageOfBlock[place];
        stages[stage].add(spreadCost(charge), m);
    }
    std::vector<double> kindBoundary;
    for (const PricingClasses::Place& kind : classes.blockKinds)
        kindBoundary.push_back(boundarySendSeconds(plan, kind.first, steps));
    std::vector<double> boundarySeconds;
    for (std::size_t b = 0; b < blockCount; ++b)
        boundarySeconds.push_back(kindBoundary[classes.kindOfBlock[b]]);
    result.total.time.byAxis.assign(axisCount, 0.0);
    priceStageNodes(result, plan.pipeline, blockCount, std::move(stages), transient, steps.microSteps,
                    boundarySeconds, workload_.pipelineSendOverlap);
}

}  // namespace tapestry
