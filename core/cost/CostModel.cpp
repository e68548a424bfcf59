#include "cost/CostModel.h"

#include "base/Error.h"
#include "cost/CausalAttention.h"
#include "cost/EagerKernelBytes.h"
#include "cost/EagerLaunchFloor.h"
#include "cost/ExpertRouting.h"
#include "cost/FsdpGradientCopies.h"
#include "cost/GradientsAtPeak.h"
#include "cost/KernelTime.h"
#include "cost/Overlap.h"
#include "cost/ZeroGatherOverhead.h"
#include "fold/ActivationWalk.h"
#include "fold/FoldFacts.h"
#include "fold/FoldedModel.h"
#include "fold/GradientCarriers.h"
#include "fold/InstanceRepeats.h"
#include "graph/Graph.h"
#include "plan/ParallelDegrees.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

namespace tapestry {

namespace {

// The gradients the norm clip reads (and scales) per parameter the optimizer steps: the fp32
// gradients it steps (Megatron-LM's fp32 main gradients or their fp32 copies, FSDP2's fp32
// sharded ones). Megatron-LM's precision-aware optimizer with --main-grads-dtype bf16
// (default fp32) keeps bf16 main gradients: 2 bytes there, priced 4.
constexpr double kClippedGradientBytes = 4;

// Bytes the clip moves per parameter the optimizer steps (Workload::gradientClipping): the
// norm's read of each gradient, and where it scales every step a read and a write more
// (torch._foreach_mul_ in place). Megatron-LM's scaling above the limit depends on the
// data and is priced as not happening.
double clippedGradientBytes(GradientClipping clipping)
{
    switch (clipping) {
    case GradientClipping::None: break;
    case GradientClipping::AboveLimit: return kClippedGradientBytes;
    case GradientClipping::EveryStep: return 3 * kClippedGradientBytes;
    }
    return 0;
}

bool isSharded(AxisLayout layout)
{
    return layout == AxisLayout::Batch || layout == AxisLayout::Sequence || layout == AxisLayout::Hidden ||
           layout == AxisLayout::Expert;
}

// A model output that reaches the loss: a floating-point graph output with a gradient.
bool reachesLoss(const Tensor& tensor, bool carriesGradient)
{
    return tensor.isGraphOutput && carriesGradient && isFloatingPoint(tensor.dtype) && tensor.shape.isRankKnown() &&
           tensor.shape.rank() >= 1;
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
        return std::nullopt;  // a local slice (into Expert: the tokens routed to the rank's experts)
    if (from == AxisLayout::Partial)
        return Conversion{to == AxisLayout::Replicated ? CollectiveKind::AllReduce : CollectiveKind::ReduceScatter, false};
    if (to == AxisLayout::Replicated)
        return Conversion{CollectiveKind::AllGather, false};
    return Conversion{CollectiveKind::AllToAll, true};
}

// Adds `share` of a collective (and the implementation's own seconds around it) to the
// per-collective and per-link parts of `time`; returns the seconds added, for byAxis.
double addCollectiveParts(TimeBreakdown& time, CollectiveKind kind, const CollectiveBreakdown& price, double share,
                          double overheadSeconds = 0)
{
    const double seconds = (price.seconds() + overheadSeconds) * share;
    time.byCollective[static_cast<std::size_t>(kind)] += seconds;
    time.byLink[static_cast<std::size_t>(LinkClass::Intra)] += price.seconds(LinkClass::Intra) * share;
    time.byLink[static_cast<std::size_t>(LinkClass::Inter)] += price.seconds(LinkClass::Inter) * share;
    return seconds;
}

void addCollective(TimeBreakdown& time, CollectiveKind kind, std::size_t axis, const CollectiveBreakdown& price,
                   double share = 1.0)
{
    time.byAxis[axis] += addCollectiveParts(time, kind, price, share);
}

// Unfused attention as Megatron-LM runs it: one kernel scales, masks and softmaxes the
// scores (FusedScaleMaskSoftmax), then dropout runs as a kernel of its own
// (torch.nn.Dropout: reads the probabilities, writes its output and a one-byte mask; its
// backward reads the gradient and the mask and writes one: the same 2 + 1 + 2 bytes per
// score element). Fused with the softmax, as a node's memory-bound ops are priced, the
// probabilities would cross memory once (2 bytes per score element) instead of
// 2 + 2 + 2 + 1 (the softmax's write, dropout's read, its output and mask).
bool dropoutRunsApart(const Op& op, bool scores, AttentionKernel attention)
{
    return attention == AttentionKernel::Unfused && scores && op.type == "Dropout";
}

// A token embedding: read by Gather as its data input (a tied LM head reads it too).
bool isEmbeddingTable(const Graph& graph, const Tensor& tensor)
{
    return std::any_of(tensor.consumers.begin(), tensor.consumers.end(), [&](OpId id) {
        const Op& op = graph.op(id);
        return op.type == "Gather" && !op.inputs.empty() && op.inputs[0] == tensor.id;
    });
}

// Element-wise functions whose backward needs their input (Korthikanti et al. keep the
// GeLU input); Softmax keeps its output instead and Dropout its mask.
bool needsInputForBackward(const std::string& type)
{
    return type == "Tanh" || type == "Erf" || type == "Sigmoid" || type == "Relu" || type == "Gelu" ||
           type == "Softplus" || type == "LeakyRelu" || type == "Elu" || type == "HardSigmoid";
}

// A normalization written as ops with no mean subtracted: an RMS norm as transformers'
// LlamaRMSNorm and torch.nn.RMSNorm run it in eager PyTorch, op by op in fp32 (a LayerNorm
// runs as one kernel whatever the graph's ops, and a fused norm op as one).
bool isRmsNormAsOps(const Graph& graph, const CoarseNode& node)
{
    return std::none_of(node.ops.begin(), node.ops.end(), [&](OpId id) {
        const std::string& type = graph.op(id).type;
        return type == "Sub" || type.ends_with("Normalization");
    });
}

// The default batch of a stage mesh repeated over `stages` pipeline stages.
std::int64_t defaultBatchOf(const DeviceMesh& mesh, int stages)
{
    return ShapeBinder::defaultBatchFor(std::int64_t{mesh.deviceCount()} * stages);
}

// The data-parallel degree strategyTerms assumes (CostModel::microSteps).
int assumedDataParallelDegree(const DeviceMesh& mesh)
{
    int degree = mesh.axisCount() == 1 ? mesh.axis(0).size : 1;
    for (std::size_t a = 0; a + 1 < mesh.axisCount(); ++a)
        degree *= mesh.axis(a).size;
    return degree;
}

// The share of a layer's tokens an expert runs: its top-k over the experts, times the
// capacity factor, at most all of them.
double routedShareOf(const ExpertMembership& m, double capacityFactor)
{
    return std::min(1.0, m.topK * capacityFactor / m.experts);
}

// The model's fold facts, where its fold found them and they are its own (by fingerprint).
const FoldFacts* foldFactsOf(const FoldedModel& model)
{
    if (model.foldFacts && model.foldFacts->fingerprint != model.fingerprint)
        throw Error(ErrorCode::InvalidArgument, {},
                    "CostModel: the fold facts of another model (fingerprint " + model.foldFacts->fingerprint +
                        "; this model's is " + model.fingerprint + ")");
    return model.foldFacts.get();
}

}  // namespace

CostModel::CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                     const Cluster& cluster, const DeviceMesh& mesh, const Workload& workload,
                     PipelineSetting pipeline)
    : CostModel(graph, coarse, families, cluster, mesh, workload, std::move(pipeline), nullptr)
{
}

CostModel::CostModel(const FoldedModel& model, const Cluster& cluster, const DeviceMesh& mesh,
                     const Workload& workload, PipelineSetting pipeline)
    : CostModel(model.graph(), model.coarse, model.families, cluster, mesh, workload, std::move(pipeline),
                foldFactsOf(model))
{
}

CostModel::CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                     const Cluster& cluster, const DeviceMesh& mesh, const Workload& workload,
                     PipelineSetting pipeline, const FoldFacts* found)
    : graph_(graph),
      coarse_(coarse),
      families_(families),
      cluster_(&cluster),
      mesh_(&mesh),
      workload_(workload),
      pipeline_(std::move(pipeline)),
      binder_(graph, workload, defaultBatchOf(mesh, pipeline_.layout.stages)),
      collectives_(cluster),
      dtypeBytes_(dataTypeBits(workload.computeType) / 8.0)
{
    workload_.batch = binder_.batch();
    workload_.sequence = binder_.sequence();
    assumed_ = steppingFor(assumedDataParallelDegree(mesh));
    causal_ = attentionIsCausal(graph_, [this](TensorId id) { return isScores(id); });
    std::optional<FoldFacts> own;
    if (!found)
        found = &own.emplace(findFoldFacts(graph_, coarse_, families_, {}));
    const InstanceRepeats& repeats = found->repeats;
    const std::vector<bool>& carries = found->gradientCarriers;
    bound_->copiedFrom = repeats.nodeBefore;
    std::vector<ExpertMembership> membership = expertMembership(graph_, coarse_, binder_);
    if (std::none_of(membership.begin(), membership.end(), [](const ExpertMembership& m) { return m.experts > 0; }))
        membership.clear();  // no expert: nothing reads or changes anything of theirs
    computeOpFacts(repeats, carries, membership);
    computeNodeFacts(repeats, carries);
    computeCrossingTensors(repeats, carries);
    computeBlocks();
    computeExperts(membership);
    checkFp8();
    computeFp8();
}

CostModel CostModel::withTechniques(Recomputation recompute, int zeroStage, int zeroReplicas) const
{
    CostModel other(*this);
    other.workload_.recompute = recompute;
    other.workload_.zeroStage = zeroStage;
    other.workload_.zeroReplicas = zeroReplicas;
    return other;
}

std::optional<CostModel> CostModel::rebound(const Cluster& cluster, const DeviceMesh& mesh,
                                            const Workload& workload, PipelineSetting pipeline) const
{
    const ShapeBinder binder(graph_, workload, defaultBatchOf(mesh, pipeline.layout.stages));
    if (binder.batch() != binder_.batch() || binder.sequence() != binder_.sequence() ||
        binder.batchSource() != binder_.batchSource() || binder.sequenceSource() != binder_.sequenceSource() ||
        workload.computeType != workload_.computeType || workload.attention != workload_.attention ||
        workload.keyValueHeads != workload_.keyValueHeads || workload.savedActivations != workload_.savedActivations ||
        workload.fp8 != workload_.fp8 || workload.fp8Implementation != workload_.fp8Implementation ||
        workload.capacityFactor != workload_.capacityFactor)
        return std::nullopt;
    CostModel other(*this);
    other.cluster_ = &cluster;
    other.mesh_ = &mesh;
    other.workload_ = workload;
    other.workload_.batch = binder.batch();
    other.workload_.sequence = binder.sequence();
    other.pipeline_ = std::move(pipeline);
    other.binder_ = binder;
    other.collectives_ = CollectiveCost(cluster);
    other.assumed_ = other.steppingFor(assumedDataParallelDegree(mesh));
    other.checkFp8();
    return other;
}

bool CostModel::isConstant(TensorId id) const
{
    return isDerivedConstant(graph_, coarse_, id);
}

bool CostModel::isScores(TensorId id) const
{
    if (!id.isValid())
        return false;
    const TensorShape& shape = graph_.tensor(id).shape;
    return shape.isRankKnown() && shape.rank() >= 3 && binder_.isSequenceAxis(shape, shape.rank() - 1) &&
           binder_.isSequenceAxis(shape, shape.rank() - 2);
}

double CostModel::projectedBytes(TensorId id) const
{
    auto bytesOf = [&](TensorId t) {
        return graph_.tensor(t).shape.isRankKnown() ? binder_.elementCount(graph_.tensor(t).shape) * dtypeBytes_ : 0.0;
    };
    double bytes = bytesOf(id);
    double smallest = bytes;
    // Back through ops with one activation input (reshapes, transposes, rotary
    // embedding, the repeat of grouped-query attention) to the projection. Between two
    // static shapes the size follows the export's own element counts: a reshape keeps
    // them, the repeat multiplies them by the group. The binder cannot size every
    // static shape alone: an export traced at batch 1 reshapes [1, kv, group, s, d] to
    // [heads, s, d] for its batched matmuls, and no axis of that is the batch.
    for (int step = 0; step < 64; ++step) {
        const TensorId next = activationWalkedBackThrough(graph_, coarse_, graph_.tensor(id).producer);
        if (!next.isValid())
            break;
        const std::optional<std::int64_t> was = graph_.tensor(id).shape.elementCount();
        const std::optional<std::int64_t> is = graph_.tensor(next).shape.elementCount();
        bytes = was && is && *was > 0 && bytes > 0 ? bytes * static_cast<double>(*is) / static_cast<double>(*was)
                                                   : bytesOf(next);
        id = next;
        if (bytes > 0)
            smallest = std::min(smallest, bytes);
    }
    return smallest;
}

bool CostModel::isAttentionOutput(TensorId id) const
{
    for (int step = 0; step < 64 && id.isValid(); ++step) {
        const OpId producer = graph_.tensor(id).producer;
        if (producer.isValid() && bound_->ops[producer.index()].attentionOutput)
            return true;
        id = activationWalkedBackThrough(graph_, coarse_, producer);
    }
    return false;
}

void CostModel::computeOpFacts(const InstanceRepeats& repeats, const std::vector<bool>& carries,
                               const std::vector<ExpertMembership>& membership)
{
    bound_->ops.assign(graph_.opCount(), {});
    auto activationBytes = [&](TensorId id) {
        if (!id.isValid())
            return 0.0;
        const Tensor& tensor = graph_.tensor(id);
        return isConstant(id) || !tensor.shape.isRankKnown() ? 0.0 : binder_.elementCount(tensor.shape) * dtypeBytes_;
    };
    // A node's memory-bound ops run as one fused kernel: what another op of the same
    // node's fused part produced or consumes never goes through memory.
    auto runsApart = [&](OpId id) {
        const Op& op = graph_.op(id);
        return dropoutRunsApart(op, !op.outputs.empty() && isScores(op.outputs[0]), workload_.attention);
    };
    auto isFollowerIn = [&](OpId op, CoarseNodeId node) {
        return op.isValid() && coarse_.nodeOf[op.index()] == node && coarse_.node(node).anchor != op &&
               coarse_.roles[op.index()] != OpRole::Auxiliary && !runsApart(op);
    };
    for (const Op& op : graph_.ops()) {
        const OpRole role = coarse_.roles[op.id.index()];
        OpFacts& facts = bound_->ops[op.id.index()];
        if (role == OpRole::Auxiliary || repeats.opBefore[op.id.index()].isValid())
            continue;
        auto noteScores = [&](TensorId t) {
            if (!isScores(t))
                return;
            facts.scores = true;
            facts.keys = static_cast<double>(binder_.extents(graph_.tensor(t).shape).back());
        };
        for (const TensorId t : op.inputs)
            noteScores(t);
        for (const TensorId t : op.outputs)
            noteScores(t);
        facts.attentionOutput = role == OpRole::BatchedMatMul && facts.scores && !op.outputs.empty() &&
                                !isScores(op.outputs[0]);
        const TensorShape& out = op.outputs.empty() || !op.outputs[0].isValid() ? TensorShape{}
                                                                                 : graph_.tensor(op.outputs[0]).shape;
        if (role == OpRole::Linear || role == OpRole::BatchedMatMul || role == OpRole::Conv) {
            if (role == OpRole::Conv) {
                const auto extents = binder_.extents(graph_.tensor(op.inputs[1]).shape);
                double perOutput = 1;
                for (std::size_t i = 1; i < extents.size(); ++i)
                    perOutput *= static_cast<double>(extents[i]);
                facts.flops = 2.0 * binder_.elementCount(out) * perOutput;
            } else {
                const std::vector<std::int64_t> a = binder_.extents(graph_.tensor(op.inputs[0]).shape);
                std::int64_t k = a.empty() ? 1 : a.back();
                if (op.type == "Gemm") {
                    const Attribute* transA = op.findAttribute("transA");
                    if (transA && std::get_if<std::int64_t>(&transA->value) &&
                        std::get<std::int64_t>(transA->value) != 0 && !a.empty())
                        k = a.front();
                }
                facts.flops = 2.0 * binder_.elementCount(out) * static_cast<double>(k);
                // QKᵀ contracts over the head dimension; scores x V writes it.
                if (facts.scores && role == OpRole::BatchedMatMul) {
                    const std::vector<std::int64_t> o = binder_.extents(out);
                    facts.headDim = static_cast<double>(facts.attentionOutput ? (o.empty() ? 0 : o.back()) : k);
                }
            }
            for (const TensorId input : op.inputs) {
                if (!input.isValid())
                    continue;
                const Tensor& t = graph_.tensor(input);
                if (isConstant(input)) {
                    if (const auto count = t.shape.elementCount())
                        facts.weightBytes += static_cast<double>(*count) * dtypeBytes_;
                } else {
                    facts.inputBytes += activationBytes(input);
                }
            }
            facts.outputBytes = activationBytes(op.outputs[0]);
            continue;
        }
        const CoarseNodeId node = coarse_.nodeOf[op.id.index()];
        double bytes = 0;
        if (runsApart(op.id)) {
            // Its own kernel: the probabilities in, the output and the one-byte mask out.
            // torch.nn.Dropout writes the mask in training whether or not the graph names it.
            bytes = activationBytes(op.inputs[0]) + activationBytes(op.outputs[0]) + binder_.elementCount(out);
            facts.memoryBoundBytes = bytes;
            facts.memoryBoundBackwardBytes = bytes;
            continue;
        }
        if (role != OpRole::Embedding) {
            for (const TensorId input : op.inputs) {
                if (input.isValid() && !isFollowerIn(graph_.tensor(input).producer, node))
                    bytes += activationBytes(input) * expertReadShare(op.id, input, membership);
            }
        }
        for (const TensorId output : op.outputs) {
            if (!output.isValid())
                continue;
            const Tensor& t = graph_.tensor(output);
            const bool leaves = t.isGraphOutput || std::any_of(t.consumers.begin(), t.consumers.end(), [&](OpId c) {
                                    return coarse_.roles[c.index()] != OpRole::Auxiliary && !isFollowerIn(c, node);
                                });
            if (leaves)
                bytes += activationBytes(output);
        }
        facts.memoryBoundBytes = bytes;
        // Backward moves about twice the forward's bytes (the gradient in and out, the
        // input or output read again).
        facts.memoryBoundBackwardBytes = 2 * bytes;
    }
    if (workload_.savedActivations == SavedActivations::Eager)
        computeEagerKernels(repeats, carries, membership);
    for (const OpId op : repeats.repeatedOps)
        bound_->ops[op.index()] = bound_->ops[repeats.opBefore[op.index()].index()];
}

void CostModel::computeEagerKernels(const InstanceRepeats& repeats, const std::vector<bool>& carries,
                                    const std::vector<ExpertMembership>& membership)
{
    const double c = dtypeBytes_;
    auto elements = [&](TensorId id) {
        return id.isValid() && graph_.tensor(id).shape.isRankKnown() ? binder_.elementCount(graph_.tensor(id).shape)
                                                                      : 0.0;
    };
    // Per node: the product by its weight that ends an RMS norm written as ops, which eager
    // PyTorch runs in fp32 up to that product (transformers' LlamaRMSNorm, torch.nn.RMSNorm):
    // its input cast up once, the normalized tensor cast back before the weight multiplies it.
    std::vector<OpId> fp32End(coarse_.nodes.size());
    for (const CoarseNode& node : coarse_.nodes) {
        if (node.kind != CoarseNodeKind::Normalization || !isRmsNormAsOps(graph_, node))
            continue;
        for (const OpId id : node.ops) {
            const Op& op = graph_.op(id);
            const auto isWeight = [&](TensorId input) {
                return input.isValid() && isParameter(graph_, input) && elements(input) > 1;
            };
            if (op.type == "Mul" && std::any_of(op.inputs.begin(), op.inputs.end(), isWeight))
                fp32End[node.id.index()] = id;
        }
    }
    auto nodeOf = [&](OpId id) { return coarse_.nodeOf[id.index()]; };
    auto inFp32 = [&](OpId id) {
        const OpId end = fp32End[nodeOf(id).index()];
        return end.isValid() && end != id;
    };
    // A node with an anchor runs as today: the anchor's kernel and one for what follows it
    // (bias and activation function: torch's activations are one kernel each).
    auto ownKernel = [&](OpId id) {
        return coarse_.roles[id.index()] != OpRole::Auxiliary && !coarse_.node(nodeOf(id)).anchor.isValid();
    };
    auto onGradientPath = [&](const Op& op) {
        return std::any_of(op.outputs.begin(), op.outputs.end(),
                           [&](TensorId output) { return output.isValid() && carries[output.index()]; });
    };
    std::vector<bool> castUp(graph_.tensors().size(), false);
    for (const Op& op : graph_.ops()) {
        if (repeats.opBefore[op.id.index()].isValid())
            continue;  // copied from the instance before
        OpFacts& facts = bound_->ops[op.id.index()];
        if (ownKernel(op.id) && onGradientPath(op)) {
            const bool fp32 = inFp32(op.id);
            facts.memoryBoundBytes = 0;  // not a fused node's share: its own kernels, below
            facts.memoryBoundBackwardBytes = 0;
            std::vector<double> inputs;
            std::vector<bool> gradients;
            double unread = 0;  // of what the experts made, the rows they did not make
            for (const TensorId input : op.inputs) {
                const bool parameter = input.isValid() && isParameter(graph_, input);
                const bool activation = input.isValid() && !isConstant(input);
                const double share = expertReadShare(op.id, input, membership);
                inputs.push_back(parameter || activation ? elements(input) * (fp32 && activation ? 4.0 : c) : 0.0);
                gradients.push_back(parameter || (activation && carries[input.index()]));
                unread += (1 - share) * inputs.back();
                // The node's input, cast up to fp32 by the first of its ops reading it; the
                // gradients of the ops reading that copy are summed in fp32.
                const OpId producer = input.isValid() ? graph_.tensor(input).producer : OpId{};
                if (fp32 && activation && (!producer.isValid() || nodeOf(producer) != nodeOf(op.id)) &&
                    !castUp[input.index()]) {
                    castUp[input.index()] = true;
                    const std::vector<OpId>& readers = graph_.tensor(input).consumers;
                    const auto inNode = std::count_if(readers.begin(), readers.end(),
                                                      [&](OpId reader) { return nodeOf(reader) == nodeOf(op.id); });
                    facts.memoryBoundBytes += share * elements(input) * (c + 4);
                    facts.memoryBoundBackwardBytes +=
                        share * (elements(input) * (4 + c) +
                                 eagerGradientSumBytes(static_cast<int>(inNode), elements(input) * 4));
                    facts.forwardKernels += 1;
                    facts.backwardKernels += 1 + eagerGradientSumKernels(static_cast<int>(inNode));
                }
            }
            const TensorId output = op.outputs.empty() ? TensorId{} : op.outputs[0];
            EagerKernelBytes bytes = eagerKernelBytes(op.type, inputs, gradients, elements(output) * (fp32 ? 4.0 : c));
            if (unread > 0 && eagerKernelReadsInputs(op.type)) {
                // A kernel reading what the experts made reads their routed rows; backward
                // reads less by the same share.
                bytes.backward *= (bytes.forward - unread) / bytes.forward;
                bytes.forward -= unread;
            }
            facts.memoryBoundBytes += bytes.forward;
            facts.memoryBoundBackwardBytes += bytes.backward;
            facts.forwardKernels += bytes.forwardKernels;
            facts.backwardKernels += bytes.backwardKernels;
            // The normalized tensor cast back down for the weight's product.
            const OpId end = fp32End[nodeOf(op.id).index()];
            const std::vector<TensorId>& endInputs = end.isValid() ? graph_.op(end).inputs : op.inputs;
            if (fp32 && end.isValid() && std::find(endInputs.begin(), endInputs.end(), output) != endInputs.end()) {
                facts.memoryBoundBytes += elements(output) * (4 + c);
                facts.memoryBoundBackwardBytes += elements(output) * (c + 4);
                facts.forwardKernels += 1;
                facts.backwardKernels += 1;
            }
        } else if (ownKernel(op.id) && facts.memoryBoundBytes > 0) {
            // Off the gradient path (rotary tables): a kernel forward, none in backward.
            facts.memoryBoundBackwardBytes = 0;
            facts.forwardKernels = 1;
        }
        for (const TensorId output : op.outputs) {
            if (!output.isValid() || !carries[output.index()] || coarse_.roles[op.id.index()] == OpRole::Auxiliary)
                continue;
            // Gradients meeting at the tensor: one per op of its own kernel that reads it, one
            // per other node (an anchor and its followers run as one; an fp32 norm reads its
            // one fp32 copy).
            int consumers = 0;
            std::vector<CoarseNodeId> counted;
            for (const OpId consumer : graph_.tensor(output).consumers) {
                if (coarse_.roles[consumer.index()] == OpRole::Auxiliary)
                    continue;
                const CoarseNodeId node = nodeOf(consumer);
                const bool readsFp32Copy = inFp32(consumer) && node != nodeOf(op.id);
                if (ownKernel(consumer) && !readsFp32Copy) {
                    ++consumers;
                } else if (std::find(counted.begin(), counted.end(), node) == counted.end()) {
                    counted.push_back(node);
                    ++consumers;
                }
            }
            const double elementBytes = inFp32(op.id) ? 4.0 : c;
            facts.memoryBoundBackwardBytes += eagerGradientSumBytes(consumers, elements(output) * elementBytes);
            facts.backwardKernels += eagerGradientSumKernels(consumers);
            // The loss, on the fp32 logits.
            if (reachesLoss(graph_.tensor(output), true)) {
                const EagerKernelBytes loss = eagerLossBytes(elements(output), c);
                facts.memoryBoundBytes += loss.forward;
                facts.memoryBoundBackwardBytes += loss.backward;
                facts.forwardKernels += loss.forwardKernels;
                facts.backwardKernels += loss.backwardKernels;
            }
        }
    }
    // A node with an anchor: the anchor's kernels (a GEMM: one forward, the data and weight
    // gradients backward; SDPA: one forward and three backward, FlashAttention-2's row sums
    // of dO x O, its main kernel and dq's conversion, counted half on each of the two matmuls
    // that price its halves; an embedding: its gather and scatter), and one each way for what
    // follows it.
    for (const CoarseNode& node : coarse_.nodes) {
        if (!node.anchor.isValid() || repeats.opBefore[node.anchor.index()].isValid())
            continue;
        OpFacts& anchor = bound_->ops[node.anchor.index()];
        const bool fusedScores = anchor.scores && isFusedAttention(workload_.attention);
        if (!fusedScores) {
            anchor.forwardKernels += 1;
            anchor.backwardKernels += anchor.flops > 0 ? 2 : 1;
        } else {
            anchor.forwardKernels += 0.5;
            anchor.backwardKernels += 1.5;
        }
        // The followers' one kernel, counted on each by its share of the bytes it moves (the
        // share of the kernel's time each is priced).
        auto follows = [&](OpId id) {
            const OpFacts& op = bound_->ops[id.index()];
            return id != node.anchor && coarse_.roles[id.index()] != OpRole::Auxiliary &&
                   !(op.scores && isFusedAttention(workload_.attention)) && op.memoryBoundBytes > 0;
        };
        double followerBytes = 0;
        for (const OpId id : node.ops)
            followerBytes += follows(id) ? bound_->ops[id.index()].memoryBoundBytes : 0.0;
        for (const OpId id : node.ops) {
            if (!follows(id))
                continue;
            OpFacts& follower = bound_->ops[id.index()];
            follower.forwardKernels += follower.memoryBoundBytes / followerBytes;
            follower.backwardKernels += follower.memoryBoundBytes / followerBytes;
        }
    }
}

void CostModel::computeNodeFacts(const InstanceRepeats& repeats, const std::vector<bool>& carries)
{
    bound_->nodes.assign(coarse_.nodes.size(), {});
    std::vector<bool> savedBefore(graph_.tensors().size(), false);
    // A parameter read by several nodes (a tied LM head reads the token embedding) is
    // one tensor, kept once: at the first node reading it.
    std::vector<bool> parameterCounted(graph_.tensors().size(), false);
    auto bytesOf = [&](TensorId id, double elementBytes) {
        return id.isValid() && graph_.tensor(id).shape.isRankKnown()
                   ? binder_.elementCount(graph_.tensor(id).shape) * elementBytes
                   : 0.0;
    };
    // Per tensor, the last node (its index + 1) whose ops reached it: one array for all
    // nodes, not a set per node.
    std::vector<std::size_t> seenBy(graph_.tensors().size(), 0);
    // (tensor, the Identity copy it is reached through or none): an exporter that merged
    // equal initializers of different modules gives each its own Identity copy, a weight
    // of its own (as countParameters counts them); a tied embedding is one weight.
    std::vector<std::pair<TensorId, TensorId>> pending;
    for (const CoarseNode& node : coarse_.nodes) {
        NodeFacts& facts = bound_->nodes[node.id.index()];
        // In an instance that repeats the one before: the facts at its position there, on
        // its own tensors; its own weights are counted below.
        const CoarseNodeId before = repeats.nodeBefore[node.id.index()];
        if (before.isValid()) {
            facts = bound_->nodes[before.index()];
            facts.parameterElements = 0;
            facts.parameterTensors = 0;
            facts.tiedParameterElements = 0;
            for (SavedActivation& saved : facts.savedActivations) {
                saved.tensor = repeats.next(graph_, coarse_, saved.tensor);
                savedBefore[saved.tensor.index()] = true;
            }
        }
        facts.costOp = node.anchor.isValid()      ? node.anchor
                       : !node.ops.empty()        ? node.ops.front()
                                                  : node.auxiliaryOps.front();
        // Parameters: initializers the node's ops read, directly or through auxiliary
        // ops (transposed or Identity-copied weights), each once.
        const std::size_t visit = node.id.index() + 1;
        pending.clear();
        bool nonlinear = false;
        auto save = [&](TensorId id, double bytes, bool asOutput) {
            if (id.isValid())
                facts.savedActivations.push_back({id, bytes, asOutput, isScores(id)});
        };
        // A product of two activations that both need gradients (a gated MLP's activation
        // times its up projection) keeps both factors. A factor made by this node's fused
        // kernel is made again by it; one an earlier node made by an activation function
        // from its anchor's output, which that node keeps, is recomputed from it, as
        // Megatron-LM's and Transformer Engine's fused SwiGLU keep the gate and up
        // projections' outputs only.
        auto keepsAnchorOutput = [&](CoarseNodeId maker) {
            const OpId anchor = coarse_.node(maker).anchor;
            if (!anchor.isValid())
                return false;
            const TensorId made = graph_.op(anchor).outputs[0];
            const std::vector<SavedActivation>& kept = bound_->nodes[maker.index()].savedActivations;
            return std::any_of(kept.begin(), kept.end(),
                               [&](const SavedActivation& saved) { return saved.asOutput && saved.tensor == made; });
        };
        const bool eager = workload_.savedActivations == SavedActivations::Eager;
        auto saveFactors = [&](const Op& product) {
            const bool bothTrained = product.inputs.size() == 2 &&
                                     std::all_of(product.inputs.begin(), product.inputs.end(), [&](TensorId input) {
                                         return input.isValid() && !isConstant(input) && carries[input.index()];
                                     });
            if (!bothTrained)
                return;
            for (const TensorId factor : product.inputs) {
                const OpId maker = graph_.tensor(factor).producer;
                const CoarseNodeId makerNode = maker.isValid() ? coarse_.nodeOf[maker.index()] : CoarseNodeId{};
                // Eager PyTorch keeps the activation function's output: nothing recomputes it.
                if (makerNode == node.id || (!eager && makerNode.isValid() && keepsAnchorOutput(makerNode)))
                    continue;
                save(factor, bytesOf(factor, dtypeBytes_), false);
            }
        };
        for (const OpId id : node.ops) {
            const Op& op = graph_.op(id);
            for (const TensorId input : op.inputs) {
                if (input.isValid())
                    pending.emplace_back(input, TensorId{});
            }
            if (before.isValid())
                continue;
            facts.memoryBoundBytes += bound_->ops[id.index()].memoryBoundBytes;
            if (op.type == "Softmax" && op.outputs[0].isValid())
                save(op.outputs[0], bytesOf(op.outputs[0], dtypeBytes_), true);
            if (op.type == "Dropout" && op.outputs.size() > 1 && op.outputs[1].isValid())
                save(op.outputs[1], bytesOf(op.outputs[1], 1.0), true);  // the mask, one byte per element
            if (op.type == "Mul")
                saveFactors(op);
            nonlinear = nonlinear || needsInputForBackward(op.type);
        }
        while (!pending.empty()) {
            const auto [id, copy] = pending.back();
            pending.pop_back();
            if (seenBy[id.index()] == visit)
                continue;
            seenBy[id.index()] = visit;
            const Tensor& tensor = graph_.tensor(id);
            if (isParameter(graph_, id)) {
                const TensorId weight = copy.isValid() && !isEmbeddingTable(graph_, tensor) ? copy : id;
                const double elements = static_cast<double>(graph_.initializer(tensor.initializer).elementCount);
                if (!parameterCounted[weight.index()]) {
                    facts.parameterElements += elements;
                    ++facts.parameterTensors;
                } else {
                    facts.tiedParameterElements += elements;
                }
                parameterCounted[weight.index()] = true;
            } else if (tensor.producer.isValid() && coarse_.roles[tensor.producer.index()] == OpRole::Auxiliary) {
                const bool identity = graph_.op(tensor.producer).type == "Identity";
                for (const TensorId input : graph_.op(tensor.producer).inputs) {
                    if (input.isValid())
                        pending.emplace_back(input, identity ? id : copy);
                }
            }
        }
        if (before.isValid())
            continue;
        if (node.anchor.isValid()) {
            const Op& anchor = graph_.op(node.anchor);
            facts.flops = bound_->ops[node.anchor.index()].flops;
            // A fused attention kernel never writes the s x s scores.
            const bool fusedScores = isScores(anchor.outputs[0]) && isFusedAttention(workload_.attention);
            facts.transientBytes = fusedScores ? 0.0 : bytesOf(anchor.outputs[0], dtypeBytes_);
            if (node.kind == CoarseNodeKind::BatchedMatMul) {
                const bool attention = bound_->ops[node.anchor.index()].scores;
                // The keys (of QKᵀ) or values (of ·V), as the stack's attention call takes them.
                const double second = attention && keepsGroupedKeyValues(workload_)
                                          ? projectedBytes(anchor.inputs[1])
                                          : bytesOf(anchor.inputs[1], dtypeBytes_);
                save(anchor.inputs[0], bytesOf(anchor.inputs[0], dtypeBytes_), false);
                save(anchor.inputs[1], second, false);
                if (attention)
                    facts.ringBytes = projectedBytes(anchor.inputs[1]);
            } else if (node.kind != CoarseNodeKind::Embedding) {
                // The activation operand: whichever input is not a (derived) constant.
                for (const TensorId input : anchor.inputs) {
                    if (input.isValid() && !isConstant(input)) {
                        save(input, bytesOf(input, dtypeBytes_), false);
                        break;
                    }
                }
            }
            // An activation function after the anchor needs its input: the anchor's
            // output (bias and activation run fused on it).
            if (nonlinear)
                save(anchor.outputs[0], bytesOf(anchor.outputs[0], dtypeBytes_), true);
        } else if (node.kind == CoarseNodeKind::Normalization && !node.ops.empty()) {
            const TensorId input = graph_.op(node.ops.front()).inputs.front();
            if (eager && isRmsNormAsOps(graph_, node)) {
                // Its ops save the input upcast to fp32 (the square and the scaling: in place
                // of the 16-bit input its product was seen to keep above) and the normalized
                // tensor (the weight's product, for the weight's gradient).
                std::erase_if(facts.savedActivations, [&](const SavedActivation& saved) { return saved.tensor == input; });
                save(input, bytesOf(input, 4.0), false);
                for (const OpId id : node.ops) {
                    const Op& op = graph_.op(id);
                    if (op.type != "Mul" || op.inputs.size() != 2)
                        continue;
                    for (std::size_t i = 0; i < 2; ++i) {
                        const TensorId weight = op.inputs[i];
                        const TensorId normalized = op.inputs[1 - i];
                        if (weight.isValid() && normalized.isValid() && isConstant(weight) &&
                            binder_.elementCount(graph_.tensor(weight).shape) > 1 && carries[normalized.index()])
                            save(normalized, bytesOf(normalized, dtypeBytes_), true);
                    }
                }
            } else {
                save(input, bytesOf(input, dtypeBytes_), false);
            }
        }
        // A model output reaches the loss, which eager PyTorch runs as cross_entropy on the
        // fp32 logits: log_softmax keeps its fp32 output; its backward, at the start of the
        // backward pass, holds the gradients of that output and of the logits, in fp32 too.
        if (eager) {
            for (const OpId id : node.ops) {
                for (const TensorId output : graph_.op(id).outputs) {
                    if (!output.isValid())
                        continue;
                    if (reachesLoss(graph_.tensor(output), carries[output.index()])) {
                        save(output, bytesOf(output, 4.0), true);
                        facts.transientBytes = std::max(facts.transientBytes, bytesOf(output, 8.0));
                    }
                }
            }
        }
        // A tensor is kept once, by the first node (in node order) that saves it.
        std::erase_if(facts.savedActivations, [&](const SavedActivation& saved) {
            const bool duplicate = savedBefore[saved.tensor.index()];
            savedBefore[saved.tensor.index()] = true;
            return duplicate;
        });
    }
}

void CostModel::computeCrossingTensors(const InstanceRepeats& repeats, const std::vector<bool>& carries)
{
    // Per tensor, its index in bound_->crossing (or -1): where an op of a repeating
    // instance finds the sizes of its predecessor's tensor.
    std::vector<std::ptrdiff_t> crossingOf(graph_.tensors().size(), -1);
    for (const CoarseNode& node : coarse_.nodes) {
        for (const OpId id : node.ops) {
            const std::vector<TensorId>& outputs = graph_.op(id).outputs;
            for (std::size_t slot = 0; slot < outputs.size(); ++slot) {
                const TensorId output = outputs[slot];
                if (!output.isValid())
                    continue;
                const Tensor& tensor = graph_.tensor(output);
                const OpId before = repeats.opBefore[id.index()];
                const std::ptrdiff_t was = before.isValid() ? crossingOf[graph_.op(before).outputs[slot].index()] : -1;
                const auto bytesOf = [&] {
                    return was >= 0                     ? bound_->crossing[static_cast<std::size_t>(was)].bytes
                           : tensor.shape.isRankKnown() ? binder_.elementCount(tensor.shape) * dtypeBytes_
                                                        : 0.0;
                };
                if (reachesLoss(tensor, carries[output.index()])) {
                    const auto extents = binder_.extents(tensor.shape);
                    const double last = std::max<double>(1.0, static_cast<double>(extents.back()));
                    bound_->outputs.push_back({node.id, id, bytesOf(), binder_.elementCount(tensor.shape) / last});
                }
                CrossingTensor crossing;
                for (const OpId consumer : tensor.consumers) {
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
                const double bytes = bytesOf();
                crossing.bytes = bytes;
                const bool intoAttention = std::all_of(crossing.consumers.begin(), crossing.consumers.end(),
                                                       [&](const auto& c) {
                                                           return coarse_.node(c.first).kind == CoarseNodeKind::BatchedMatMul;
                                                       });
                if (was >= 0) {
                    crossing.repeat = bound_->crossing[static_cast<std::size_t>(was)].repeat;
                    crossing.heads = bound_->crossing[static_cast<std::size_t>(was)].heads;
                } else if (intoAttention && bytes > 0 && tensor.shape.isRankKnown() && tensor.shape.rank() == 4) {
                    const double unrepeated = projectedBytes(output);
                    if (unrepeated > 0 && unrepeated < bytes) {
                        crossing.repeat = bytes / unrepeated;
                        crossing.heads = static_cast<double>(binder_.extents(tensor.shape)[1]);
                    }
                }
                crossing.carriesGradient = carries[output.index()];
                crossing.producer = node.id;
                crossing.producerOp = id;
                crossingOf[output.index()] = static_cast<std::ptrdiff_t>(bound_->crossing.size());
                bound_->crossing.push_back(std::move(crossing));
            }
        }
    }
}

void CostModel::markReplayStop(const BlockInstance& instance)
{
    // Backwards from the block's end: nodes that keep nothing, then the last linear layer
    // (its input is saved before its GEMM runs). A node that keeps a tensor of its own
    // making must run again, and so must everything before it.
    std::vector<CoarseNodeId> tail;
    for (auto it = instance.nodes.rbegin(); it != instance.nodes.rend(); ++it) {
        const NodeFacts& facts = bound_->nodes[it->index()];
        const bool keepsOwnTensor = std::any_of(facts.savedActivations.begin(), facts.savedActivations.end(),
                                                [](const SavedActivation& saved) { return saved.asOutput; });
        if (keepsOwnTensor)
            return;
        tail.push_back(*it);
        if (coarse_.node(*it).kind == CoarseNodeKind::Linear) {
            for (const CoarseNodeId id : tail)
                bound_->nodes[id.index()].pastReplayStop = true;
            return;
        }
        if (!facts.savedActivations.empty())
            return;
    }
}

void CostModel::computeBlocks()
{
    for (const Family& family : families_.families) {
        if (family.parent.isValid())
            continue;
        for (const BlockInstance& instance : family.instances) {
            double parameters = 0;
            int linears = 0;
            for (const CoarseNodeId id : instance.nodes) {  // ascending: forward order
                bound_->nodes[id.index()].block = blockCount_;
                parameters += bound_->nodes[id.index()].parameterElements;
                if (coarse_.node(id).kind == CoarseNodeKind::Linear)
                    bound_->nodes[id.index()].linearOrdinal = ++linears;
            }
            markReplayStop(instance);
            bound_->blockParameterElements.push_back(parameters);
            ++blockCount_;
        }
    }
    // Each block's first node in node order.
    std::vector<std::size_t> firstOfBlock(static_cast<std::size_t>(blockCount_), bound_->nodes.size());
    for (std::size_t n = bound_->nodes.size(); n-- > 0;) {
        if (const int block = bound_->nodes[n].block; block >= 0)
            firstOfBlock[static_cast<std::size_t>(block)] = n;
    }
    for (CrossingTensor& tensor : bound_->crossing) {
        const int block = bound_->nodes[tensor.producer.index()].block;
        tensor.insideBlock = block >= 0 && std::all_of(tensor.consumers.begin(), tensor.consumers.end(), [&](const auto& c) {
                                 return bound_->nodes[c.first.index()].block == block;
                             });
        if (!tensor.carriesGradient)
            continue;
        // What enters a block is what full recomputation keeps, at the block's first node.
        std::set<int> entered;
        for (const auto& [consumer, op] : tensor.consumers) {
            const int target = bound_->nodes[consumer.index()].block;
            if (target >= 0 && target != block)
                entered.insert(target);
        }
        for (const int target : entered)
            bound_->nodes[firstOfBlock[static_cast<std::size_t>(target)]].blockInputBytes += tensor.bytes;
    }
}

double CostModel::expertReadShare(OpId op, TensorId input, const std::vector<ExpertMembership>& membership) const
{
    if (membership.empty() || !input.isValid() || isConstant(input) || !graph_.tensor(input).producer.isValid())
        return 1.0;
    const ExpertMembership& reader = membership[coarse_.nodeOf[op.index()].index()];
    const ExpertMembership& maker = membership[coarse_.nodeOf[graph_.tensor(input).producer.index()].index()];
    return reader.experts == 0 && maker.experts > 0 ? routedShareOf(maker, workload_.capacityFactor) : 1.0;
}

void CostModel::computeExperts(const std::vector<ExpertMembership>& membership)
{
    if (membership.empty())
        return;  // no expert: nothing below reads or changes anything
    for (const CoarseNode& node : coarse_.nodes) {
        const ExpertMembership& m = membership[node.id.index()];
        if (m.experts == 0)
            continue;
        NodeFacts& facts = bound_->nodes[node.id.index()];
        facts.experts = m.experts;
        facts.routedShare = routedShareOf(m, workload_.capacityFactor);
        facts.modelShare = std::min(1.0, static_cast<double>(m.topK) / m.experts);
    }
    for (CrossingTensor& tensor : bound_->crossing) {
        const NodeFacts& producer = bound_->nodes[tensor.producer.index()];
        if (producer.experts > 0) {
            tensor.experts = producer.experts;
            tensor.expertTokens = producer.routedShare * producer.experts;
            continue;
        }
        // Read by one expert alone (its routing weights): the expert's routed rows, moved
        // with the layer's other experts' in one collective, as what an expert made.
        std::set<std::string> readers;
        const NodeFacts* reader = nullptr;
        for (const auto& [consumer, op] : tensor.consumers) {
            const NodeFacts& facts = bound_->nodes[consumer.index()];
            if (facts.experts > 0) {
                readers.insert(membership[consumer.index()].expertScope);
                reader = &facts;
            }
        }
        if (!reader)
            continue;
        if (readers.size() == 1 && reader->experts > 1) {
            tensor.experts = reader->experts;
            tensor.expertTokens = reader->routedShare * reader->experts;
        } else {
            tensor.routedCopies = reader->routedShare * reader->experts;
        }
    }
}

void CostModel::checkFp8() const
{
    if (workload_.fp8 == Fp8Recipe::None)
        return;
    const Fp8Rate& fp8 = cluster_->gpu.fp8;
    if (!fp8.supported())
        throw Error(ErrorCode::InvalidArgument, {},
                    "FP8 training on " + cluster_->name + ": its GPU (" + cluster_->gpu.name +
                        ") has no FP8 tensor cores (gpu.fp8 in the cluster file)");
    if (workload_.fp8 == Fp8Recipe::Block && !fp8.blockScaling)
        throw Error(ErrorCode::InvalidArgument, {},
                    "MXFP8 training on " + cluster_->name + ": its GPU (" + cluster_->gpu.name +
                        ") has no block-scaled FP8 tensor cores (gpu.fp8.blockScaling; Blackwell has them)");
}

void CostModel::computeFp8()
{
    if (workload_.fp8 == Fp8Recipe::None)
        return;
    const double savedShare = fp8StorageBytes(workload_.fp8) / dtypeBytes_;
    for (const CoarseNode& node : coarse_.nodes) {
        NodeFacts& facts = bound_->nodes[node.id.index()];
        if (node.kind != CoarseNodeKind::Linear || facts.block < 0)
            continue;
        facts.fp8 = true;
        const std::vector<TensorId>& inputs = graph_.op(node.anchor).inputs;
        for (SavedActivation& saved : facts.savedActivations) {
            if (saved.asOutput || std::find(inputs.begin(), inputs.end(), saved.tensor) == inputs.end())
                continue;
            // A fused attention kernel keeps its own 16-bit output for its backward: in
            // 16 bits that is the projection's saved input itself, under FP8 the
            // projection keeps its FP8 copy beside it.
            const double keptByAttention =
                isFusedAttention(workload_.attention) && isAttentionOutput(saved.tensor) ? saved.bytes : 0.0;
            const double cast = saved.bytes * savedShare + keptByAttention;
            switch (workload_.fp8Implementation) {
            case Fp8Implementation::TransformerEngine: saved.bytes = cast; break;
            case Fp8Implementation::Torchao: break;  // the 16-bit input, gathered or not
            case Fp8Implementation::TorchaoFloat8TensorParallel:
                saved.castUnderTensorParallelism = true;
                saved.castBytes = cast;
                break;
            }
        }
    }
}

double CostModel::weightBytesPerParameter(const NodeFacts& facts) const
{
    if (!facts.fp8)
        return dtypeBytes_;
    return (workload_.fp8Parameters ? 0.0 : dtypeBytes_) + fp8WeightCacheBytes(cluster_->gpu.fp8, workload_.fp8);
}

double CostModel::gatheredBytesPerParameter(const NodeFacts& facts) const
{
    return facts.fp8 && workload_.fp8Parameters ? fp8StorageBytes(workload_.fp8) : dtypeBytes_;
}

bool CostModel::accepts(CoarseNodeId id, const NodeStrategy& strategy) const
{
    int degree = 1;
    for (std::size_t a = 0; a < strategy.axes.size() && a < mesh_->axisCount(); ++a) {
        if (strategy.axes[a] == AxisSplit::Expert)
            degree *= mesh_->axis(a).size;
    }
    // Each rank of the expert axes keeps experts / degree whole experts.
    const int experts = bound_->nodes.at(id.index()).experts;
    return degree == 1 || (experts > 0 && experts % degree == 0);
}

CostModel::Stepping CostModel::steppingFor(int dataParallel) const
{
    Stepping steps;
    steps.dataParallel = std::max(1, dataParallel);
    if (workload_.microBatch > 0) {
        const double perMicroStep = static_cast<double>(workload_.microBatch) * steps.dataParallel;
        steps.microSteps =
            std::max(1, static_cast<int>(std::ceil(static_cast<double>(workload_.batch) / perMicroStep)));
    }
    return steps;
}

CostModel::Stepping CostModel::steppingOf(const Plan& plan) const
{
    BatchWork work{0, std::vector<double>(mesh_->axisCount(), 0.0)};
    for (const CoarseNode& node : coarse_.nodes)
        addBatchWork(work, node.id, plan.strategy(node.id), 1);
    return steppingOf(work);
}

void CostModel::addBatchWork(BatchWork& work, CoarseNodeId node, const NodeStrategy& strategy, double count) const
{
    // Experts are left out: they take their tokens from whichever ranks hold them, so an
    // axis the experts spread over is data parallel when the rest of the model splits
    // the batch on it (expert parallelism carved from data parallelism) and not when it
    // splits the sequence (carved from context parallelism).
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        if (splitsWeights(strategy.axes[a]) && mesh_->axis(a).size > 1)
            work.tensorAxes |= AxisMask{1} << a;
    }
    const NodeFacts& facts = bound_->nodes[node.index()];
    if (facts.flops <= 0 || facts.experts > 0)
        return;
    const double flops = count * facts.flops;
    work.total += flops;
    for (std::size_t a = 0; a < work.byAxis.size() && a < strategy.axes.size(); ++a) {
        if (strategy.axes[a] == AxisSplit::Batch)
            work.byAxis[a] += flops;
    }
}

CostModel::Stepping CostModel::steppingOf(const BatchWork& work) const
{
    int degree = 1;
    for (std::size_t a = 0; a < work.byAxis.size(); ++a) {
        if (work.total > 0 && 2 * work.byAxis[a] > work.total)
            degree *= mesh_->axis(a).size;
    }
    Stepping steps = steppingFor(degree);
    steps.tensorAxes = work.tensorAxes;
    return steps;
}

void CostModel::addGradients(std::vector<GradientBucket>& buckets, const NodeStrategy& strategy,
                             double localParameters, std::size_t where, double count, const Stepping& steps) const
{
    const AxisMask axes = gradientAxes(strategy);
    if (axes == 0 || localParameters <= 0 || zeroStageOf(strategy, steps) >= 2)
        return;
    auto bucket = std::find_if(buckets.begin(), buckets.end(), [&](const GradientBucket& b) { return b.axes == axes; });
    if (bucket == buckets.end())
        bucket = buckets.insert(buckets.end(), GradientBucket{axes, 0.0, {}});
    const double bytes = localParameters * gradientBytesPerParameter();
    bucket->bytes += count * bytes;
    bucket->shares.emplace_back(where, bytes);
}

double CostModel::chargeGradients(const std::vector<GradientBucket>& buckets,
                                  const std::function<TimeBreakdown&(std::size_t)>& at,
                                  std::vector<double>& overlappable) const
{
    double gradientSync = 0;
    for (const GradientBucket& bucket : buckets) {
        const CollectiveBreakdown price =
            collectives_.price(CollectiveKind::AllReduce, mesh_->groupOf(bucket.axes), bucket.bytes);
        gradientSync += price.seconds();
        for (const auto& [where, bytes] : bucket.shares)
            overlappable[where] += chargeGradientSync(at(where), bucket.axes, price, bytes / bucket.bytes);
    }
    return gradientSync;
}

double CostModel::blockInputBytesPerDevice(const Plan& plan, CoarseNodeId first, const Stepping& steps) const
{
    const CoarseNode& node = coarse_.node(first);
    return bound_->nodes[first.index()].blockInputBytes / divisorsOf(node.kind, plan.strategy(first), steps).input /
           steps.microSteps;
}

double CostModel::boundarySendSeconds(const Plan& plan, CoarseNodeId first, const Stepping& steps) const
{
    const double bytes = blockInputBytesPerDevice(plan, first, steps);
    const NodeStrategy& strategy = plan.strategy(first);
    const CoarseNodeKind kind = coarse_.node(first).kind;
    double slices = 1;
    double gather = 0;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        const AxisGroup& group = mesh_->group(a);
        if (group.size <= 1 || group.span != GroupSpan::IntraNode ||
            requiredInputLayout(kind, strategy.axes[a]) != AxisLayout::Replicated)
            continue;
        slices *= group.size;
        gather += collectives_.price(CollectiveKind::AllGather, group, bytes).seconds();
    }
    const LinkSpec& link = pipeline_.boundaryLink;
    return bytes / slices / link.bytesPerSecond + link.latencySeconds + gather;
}

double CostModel::storedParameters(const NodeFacts& facts) const
{
    // Pipeline stages apart keep their own copy of a tied weight (Megatron-LM's last stage
    // holds the output layer's copy of the embedding).
    return facts.parameterElements + (pipeline_.layout.stages > 1 ? facts.tiedParameterElements : 0.0);
}

double CostModel::hbmBytes() const
{
    return static_cast<double>(cluster_->gpu.hbmBytes);
}

double CostModel::gradientBytesPerParameter() const
{
    return workload_.fp32MainGradients ? 4.0 : dtypeBytes_;
}

double CostModel::updateSeconds(const NodeFacts& facts, double localParameters, const Divisors& div) const
{
    const int zero = workload_.zeroStage;
    const double gradientBytes = gradientBytesPerParameter();
    const double stepBytes = localParameters / (zero >= 1 ? div.shard : 1.0) *
                             optimizerStepBytesPerParameter(workload_.optimizer, workload_.optimizerStep, gradientBytes,
                                                            dtypeBytes_);
    const double zeroedBytes = workload_.gradientLifetime == GradientLifetime::ZeroedEachStep
                                   ? localParameters * gradientBytes / (zero >= 2 ? div.shard : 1.0)
                                   : 0.0;
    const double normBytes =
        localParameters * clippedGradientBytes(workload_.gradientClipping) / (zero >= 1 ? div.shard : 1.0);
    const double update = memoryBoundSeconds(cluster_->gpu, stepBytes + zeroedBytes + normBytes);
    // Eager master copies launch two kernels per parameter tensor (its gradient cast up, its
    // master copied back); fused AdamW's own launches each serve many tensors.
    if (workload_.savedActivations == SavedActivations::Eager && workload_.optimizerStep == OptimizerStep::MasterCopies)
        return std::max(update, eagerLaunchFloorSeconds(2.0 * facts.parameterTensors));
    return update;
}

double CostModel::fsdpGradientSeconds(double localParameters, const Divisors& div, const Stepping& steps) const
{
    // Megatron-FSDP's buffers are the main gradients in either type; PyTorch's FSDP copies
    // nothing of its own beside Megatron-Core's fp32 main-gradient buffers.
    const bool megatronFsdp = workload_.zeroImplementation == ZeroImplementation::MegatronFsdp;
    if ((workload_.fp32MainGradients && !megatronFsdp) || div.shard <= 1)
        return 0;
    return steps.microSteps * fsdpGradientCopySeconds(cluster_->gpu, localParameters, workload_.zeroImplementation,
                                                      workload_.zeroStage, reduceScatterBytesPerParameter(), div.shard);
}

double CostModel::reduceScatterBytesPerParameter() const
{
    // DeepSpeed and Megatron-FSDP reduce their buckets in the gradients' own type.
    if (workload_.fp32MainGradients || workload_.zeroImplementation == ZeroImplementation::DeepSpeed ||
        workload_.zeroImplementation == ZeroImplementation::MegatronFsdp)
        return gradientBytesPerParameter();
    return dataTypeBits(workload_.gradientReduceType) / 8.0;
}

CostModel::Divisors CostModel::divisorsOf(CoarseNodeKind kind, const NodeStrategy& strategy,
                                          const Stepping& steps) const
{
    Divisors div;
    // A micro-step holds microBatch sequences per data-parallel rank (without a
    // micro-batch, the whole batch): batch splits beyond them leave ranks with the same
    // sequence, repeating its work (splitting a sequence is context parallelism's job).
    double batchSplit = 1;
    const double sequences = workload_.microBatch > 0
                                 ? static_cast<double>(workload_.microBatch) * steps.dataParallel
                                 : static_cast<double>(workload_.batch);
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        const AxisSplit split = strategy.axes[a];
        const double n = mesh_->axis(a).size;
        double divides = n;
        if (split == AxisSplit::Batch) {
            divides = std::clamp(sequences / batchSplit, 1.0, n);
            batchSplit *= n;
        }
        if (split == AxisSplit::Sequence && kind == CoarseNodeKind::BatchedMatMul)
            div.ringSteps *= n;
        if (split != AxisSplit::None)
            div.compute *= divides;
        if (splitsWeights(split) || split == AxisSplit::Hidden || split == AxisSplit::Expert)
            div.weights *= n;
        if (splitsWeights(split) || split == AxisSplit::Hidden)
            div.tensor *= n;
        if (isSharded(requiredInputLayout(kind, split)))
            div.input *= divides;
        if (isSharded(outputLayout(split)))
            div.output *= divides;
    }
    div.shard = shardGroups(strategy, steps).shard.size;
    return div;
}

double CostModel::keptBytes(const SavedActivation& saved, const Divisors& div)
{
    return saved.castUnderTensorParallelism && div.tensor > 1 ? saved.castBytes : saved.bytes;
}

bool CostModel::waitedFor(const DataParallelCollective&) const
{
    return workload_.zeroImplementation == ZeroImplementation::DeepSpeed;
}

bool CostModel::recomputesPerOp(const NodeFacts& facts) const
{
    return facts.block >= 0 && workload_.recompute == Recomputation::Selective &&
           workload_.selective == SelectiveRecomputation::EveryOtherMatmul;
}

bool CostModel::recomputes(const CoarseNode& node, const OpFacts& op) const
{
    const NodeFacts& facts = bound_->nodes[node.id.index()];
    if (facts.block < 0)
        return false;
    if (workload_.recompute == Recomputation::Full)
        return !(workload_.checkpointReplay == CheckpointReplay::StopsEarly && facts.pastReplayStop);
    if (workload_.recompute == Recomputation::None)
        return false;
    if (!recomputesPerOp(facts))  // Megatron-LM: attention's core, when its scores were written out
        return op.scores && workload_.attention == AttentionKernel::Unfused;
    // torchtitan keeps what SDPA returns and every odd-numbered matmul's output; the
    // other matmuls and every elementwise op (a kept matmul's fused epilogue too) run again.
    if (op.scores)
        return !isFusedAttention(workload_.attention);
    return !(op.flops > 0 && node.kind == CoarseNodeKind::Linear && facts.linearOrdinal % 2 == 1);
}

double CostModel::keptPerOpBytes(const CoarseNode& node, const Divisors& div) const
{
    const NodeFacts& facts = bound_->nodes[node.id.index()];
    double bytes = facts.blockInputBytes / div.input;
    for (const OpId id : node.ops) {
        const OpFacts& op = bound_->ops[id.index()];
        const bool keptMatmul = op.flops > 0 && node.kind == CoarseNodeKind::Linear && facts.linearOrdinal % 2 == 1;
        if (keptMatmul || (op.attentionOutput && isFusedAttention(workload_.attention)))
            bytes += op.outputBytes / div.output;
    }
    return bytes * facts.routedShare;
}

CostModel::OpCompute CostModel::opCompute(OpId id, const CoarseNode& node, const Divisors& div,
                                          const Stepping& steps) const
{
    const OpFacts& facts = bound_->ops[id.index()];
    const GpuSpec& gpu = cluster_->gpu;
    const bool fused = facts.scores && isFusedAttention(workload_.attention);
    OpCompute time;
    double weightCast = 0;  // FP8 weights are cast once per step, whatever the tokens and recomputation
    if (facts.flops > 0) {
        if (fused && node.kind == CoarseNodeKind::BatchedMatMul) {
            // FlashAttention: causal models skip the masked half of the scores. Ring
            // attention streams one chunk of keys per kernel call.
            const double flops = facts.flops * (causal_ ? 0.5 : 1.0) / div.compute;
            AttentionCall call;
            call.keys = facts.keys / div.ringSteps;
            call.causalSequence = causal_ ? facts.keys : 0.0;
            if (facts.headDim > 0)
                call.headDim = facts.headDim;
            time.forward = fusedAttentionSeconds(gpu, workload_.attention, flops, call);
            time.backward = fusedAttentionBackwardSeconds(gpu, workload_.attention, flops, call);
            if (facts.attentionOutput && div.ringSteps > 1) {
                // Ring attention runs one kernel per chunk step and folds each partial
                // output into the running one (rescaled by the new softmax maximum; dq
                // alike backward): every step after the first reads and writes the fp32
                // accumulator and reads the new part.
                const double accumulator = facts.outputBytes / div.output * 4 / dtypeBytes_;
                const double merge = (div.ringSteps - 1) * memoryBoundSeconds(gpu, 3 * accumulator);
                time.forward += merge;
                time.backward += merge;
            }
        } else {
            // A GEMM per micro-step: its tokens are the micro-step's share, its weights
            // whole every time (so a thin micro-batch reads them for few flops).
            const double m = steps.microSteps;
            const double flops = facts.flops / div.compute / m;
            const double input = facts.inputBytes / div.input / m;
            const double weights = facts.weightBytes / div.weights;
            const double output = facts.outputBytes / div.output / m;
            if (bound_->nodes[node.id.index()].fp8 && coarse_.roles[id.index()] == OpRole::Linear) {
                const Fp8LinearSeconds fp8 = fp8LinearSeconds(gpu, workload_.fp8, flops, input / dtypeBytes_,
                                                              weights / dtypeBytes_, output / dtypeBytes_);
                time.forward = m * fp8.forward;
                time.backward = m * fp8.backward;
                weightCast = fp8.weightCast;
            } else {
                time.forward = m * matmulSeconds(gpu, flops, input + weights + output);
                // The weight gradient in its precision, read back on every micro-step but the first.
                const double gradient = weights / dtypeBytes_ * gradientBytesPerParameter() * (2 * m - 1) / m;
                time.backward = m * linearBackwardSeconds(gpu, flops, input, weights, output, gradient);
            }
        }
    }
    if ((facts.memoryBoundBytes > 0 || facts.memoryBoundBackwardBytes > 0) && !fused) {
        time.forward += memoryBoundSeconds(gpu, facts.memoryBoundBytes / div.compute);
        time.backward += memoryBoundSeconds(gpu, facts.memoryBoundBackwardBytes / div.compute);
    }
    // An expert computes its routed tokens only.
    const double routed = bound_->nodes[node.id.index()].routedShare;
    time.forward *= routed;
    time.backward *= routed;
    // Every micro-step launches the op's kernels again, however small its share of the work.
    // Per op, not per step: the host does not run far ahead of the GPU in eager steps (the
    // four steps bench/gpu/step_profile.py profiled: their kernels, each lifted to 20 us, sum
    // to the steps within -11..+2 %; the larger of the GPU's and the host's totals, up to 32 % fast).
    const double forwardLaunches = eagerLaunchFloorSeconds(steps.microSteps * facts.forwardKernels);
    time.forward = std::max(time.forward, forwardLaunches);
    time.backward = std::max(time.backward, eagerLaunchFloorSeconds(steps.microSteps * facts.backwardKernels));
    if (recomputes(node, facts))
        time.recompute = time.forward;
    else if (recomputesPerOp(bound_->nodes[node.id.index()]) && facts.memoryBoundBytes > 0 && !fused)
        time.recompute =
            std::max(memoryBoundSeconds(gpu, facts.memoryBoundBytes / div.compute) * routed, forwardLaunches);
    time.forward += weightCast;
    return time;
}

// Saved activations of one node for one micro-batch, as a searcher sees them (the
// input-side divisor of this node only).
double CostModel::nodeActivationBytes(const CoarseNode& node, const Divisors& div, const Stepping& steps) const
{
    const NodeFacts& facts = bound_->nodes[node.id.index()];
    if (facts.block >= 0 && workload_.recompute == Recomputation::Full)
        return facts.blockInputBytes / div.input / steps.microSteps;
    if (recomputesPerOp(facts))
        return keptPerOpBytes(node, div) / steps.microSteps;
    double bytes = 0;
    for (const SavedActivation& saved : facts.savedActivations) {
        if (saved.scores && (isFusedAttention(workload_.attention) ||
                             (workload_.recompute == Recomputation::Selective && facts.block >= 0)))
            continue;
        bytes += keptBytes(saved, div) / (saved.asOutput ? div.output : div.input);
    }
    return bytes * facts.routedShare / steps.microSteps;
}

std::vector<CostModel::DataParallelCollective> CostModel::shardedDataParallel(CoarseNodeId node,
                                                                              const NodeStrategy& strategy,
                                                                              double localParameters,
                                                                              const Stepping& steps) const
{
    std::vector<DataParallelCollective> out;
    const int zero = zeroStageOf(strategy, steps);
    if (zero < 2 || localParameters <= 0)
        return out;
    const double times = steps.microSteps;
    // Collectives per pass that carry the node's parameters: its share of its block's one
    // call (FSDP gathers, and both implementations' bucketed gradient reduce-scatters);
    // one per parameter tensor for DeepSpeed's gathers. Each pays the latency.
    const NodeFacts& facts = bound_->nodes[node.index()];
    const double blockShare = facts.block >= 0 && bound_->blockParameterElements[static_cast<std::size_t>(facts.block)] > 0
                                  ? facts.parameterElements / bound_->blockParameterElements[static_cast<std::size_t>(facts.block)]
                                  : 1.0;
    const double gatherCalls = workload_.zeroImplementation == ZeroImplementation::DeepSpeed
                                   ? std::max(1, facts.parameterTensors)
                                   : blockShare;
    auto priced = [&](CollectiveKind kind, const AxisGroup& group, double bytes, double calls) {
        return collectives_.price(kind, group, bytes / calls);
    };
    const double parameterBytes = localParameters * gatheredBytesPerParameter(facts);
    const double gradientBytes = localParameters * gradientBytesPerParameter();
    const double reducedBytes = localParameters * reduceScatterBytesPerParameter();
    const ShardGroups groups = shardGroups(strategy, steps);
    const AxisMask axes = groups.axes;
    if (const AxisMask summed = gradientAxes(strategy) & ~axes; summed != 0) {
        // Sequence parallelism: the tensor ranks sum the gradients of their parameters
        // (DTensor turns the partial gradient into a replicated one each backward).
        out.push_back({CollectiveKind::AllReduce, summed,
                       collectives_.price(CollectiveKind::AllReduce, mesh_->groupOf(summed), gradientBytes), times,
                       false});
    }
    if (axes == 0)
        return out;
    const AxisGroup& group = groups.shard;
    // Gathered before forward; ZeRO 3 frees them after use and gathers again for backward.
    const CollectiveBreakdown gather = priced(CollectiveKind::AllGather, group, parameterBytes, gatherCalls);
    const double overhead = workload_.zeroImplementation == ZeroImplementation::DeepSpeed
                                ? deepSpeedGatherOverheadSeconds(cluster_->gpu, group.size, parameterBytes / gatherCalls)
                                : 0.0;
    out.push_back({CollectiveKind::AllGather, axes, gather, times * gatherCalls, true, overhead});
    if (zero >= 3)
        out.push_back({CollectiveKind::AllGather, axes, gather, times * gatherCalls, false, overhead});
    out.push_back({CollectiveKind::ReduceScatter, axes,
                   priced(CollectiveKind::ReduceScatter, group, reducedBytes, blockShare), times * blockShare, false});
    // HSDP: FSDP2's foreach_reduce all-reduces each reduce-scatter's output over the
    // replicas (torchtitan does not defer it to the last micro-step).
    if (groups.replicas.size > 1)
        out.push_back({CollectiveKind::AllReduce, axes,
                       priced(CollectiveKind::AllReduce, groups.replicas, reducedBytes / group.size, blockShare),
                       times * blockShare, false});
    return out;
}

std::vector<CostModel::LossCollective> CostModel::lossCollectives(CoarseNodeId node, const NodeStrategy& strategy,
                                                                  const Stepping& steps) const
{
    std::vector<LossCollective> out;
    const double times = steps.microSteps;
    for (const ModelOutput& output : bound_->outputs) {
        if (output.producer != node)
            continue;
        for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
            const AxisLayout layout = outputLayout(strategy.axes[a]);
            if (mesh_->axis(a).size <= 1 || (layout != AxisLayout::Hidden && layout != AxisLayout::Partial))
                continue;
            double rowDiv = 1;
            double otherDiv = 1;
            for (std::size_t b = 0; b < strategy.axes.size(); ++b) {
                const AxisLayout other = outputLayout(strategy.axes[b]);
                if (b == a || !isSharded(other))
                    continue;
                otherDiv *= mesh_->axis(b).size;
                if (other != AxisLayout::Hidden)
                    rowDiv *= mesh_->axis(b).size;
            }
            const AxisGroup& group = mesh_->group(a);
            if (layout == AxisLayout::Partial) {
                // Summed into vocabulary shards first; its gradient gathered back.
                const double bytes = output.bytes / otherDiv / steps.microSteps;
                out.push_back({CollectiveKind::ReduceScatter, a,
                               collectives_.price(CollectiveKind::ReduceScatter, group, bytes), times});
                out.push_back(
                    {CollectiveKind::AllGather, a, collectives_.price(CollectiveKind::AllGather, group, bytes), times});
            }
            // Vocab-parallel cross-entropy: per token row, the maximum, the sum of
            // exponentials and the target logit, each an fp32 all-reduce.
            const double rowBytes = 4.0 * output.rows / rowDiv / steps.microSteps;
            out.push_back({CollectiveKind::AllReduce, a, collectives_.price(CollectiveKind::AllReduce, group, rowBytes),
                           3 * times});
        }
    }
    return out;
}

std::vector<ParallelTransfer> CostModel::ringAttention(CoarseNodeId id, const NodeStrategy& strategy,
                                                      const Divisors& div, const Stepping& steps) const
{
    std::vector<ParallelTransfer> out;
    const NodeFacts& facts = bound_->nodes[id.index()];
    if (facts.ringBytes <= 0)
        return out;
    const CoarseNode& node = coarse_.node(id);
    double forward = 0;
    double backward = 0;
    for (const OpId op : node.ops) {
        const OpCompute time = opCompute(op, node, div, steps);
        forward += time.forward;
        backward += time.backward;
    }
    const double times = steps.microSteps;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        const int n = mesh_->axis(a).size;
        if (strategy.axes[a] != AxisSplit::Sequence || n <= 1)
            continue;
        // The keys of the whole axis: the tensor as the other axes shard it.
        const double bytes = facts.ringBytes * n / div.input / steps.microSteps;
        const AxisGroup& group = mesh_->group(a);
        const CollectiveBreakdown gather = collectives_.price(CollectiveKind::AllGather, group, bytes);
        const CollectiveBreakdown scatter = collectives_.price(CollectiveKind::ReduceScatter, group, bytes);
        // n - 1 of the n chunk steps overlap a transfer (causal attention balanced by
        // two chunks per rank, so every step computes alike); what hides slows the
        // attention beside it (Overlap.h).
        auto exposed = [&](double communication, double compute) {
            if (!workload_.overlap || communication <= 0)
                return 1.0;
            return std::max(communication - compute * (n - 1) / n, hiddenCommunicationCost(communication)) /
                   communication;
        };
        const double forwardShare = exposed(gather.seconds() * times, forward);
        const double backwardShare = exposed((gather.seconds() + scatter.seconds()) * times, backward);
        using Purpose = ParallelTransfer::Purpose;
        out.push_back({id, Purpose::RingForward, CollectiveKind::AllGather, a, bytes, gather, times, forwardShare});
        out.push_back({id, Purpose::RingBackward, CollectiveKind::AllGather, a, bytes, gather, times, backwardShare});
        out.push_back(
            {id, Purpose::RingGradients, CollectiveKind::ReduceScatter, a, bytes, scatter, times, backwardShare});
    }
    return out;
}

std::optional<CostModel::PricedConversion> CostModel::conversion(const CrossingTensor& tensor, std::size_t axis,
                                                                 const NodeStrategy& producer, AxisLayout from,
                                                                 AxisLayout to, bool forward,
                                                                 const Stepping& steps) const
{
    const std::optional<Conversion> needed = conversionBetween(from, to);
    const double n = mesh_->axis(axis).size;
    if (!needed || n <= 1)
        return std::nullopt;
    // The other axes shard the tensor as its producer left it.
    double otherDiv = 1;
    double otherHeadSplit = 1;
    for (std::size_t b = 0; b < producer.axes.size(); ++b) {
        if (b != axis && isSharded(outputLayout(producer.axes[b])))
            otherDiv *= mesh_->axis(b).size;
        if (b != axis && outputLayout(producer.axes[b]) == AxisLayout::Hidden)
            otherHeadSplit *= mesh_->axis(b).size;
    }
    double full = tensor.bytes / otherDiv / steps.microSteps;
    // An expert's tensor holds its routed tokens and moves in one collective with its
    // layer's other experts (this expert's share charged here); tokens entering experts
    // reach them as top-k x capacity copies.
    double share = 1;
    if (tensor.experts > 0) {
        full *= tensor.expertTokens;
        share = 1.0 / tensor.experts;
    } else if (from == AxisLayout::Expert || to == AxisLayout::Expert) {
        full *= tensor.routedCopies;
    }
    if (tensor.repeat > 1) {
        // Repeated keys and values change layout before their repeat (it is a local
        // copy), on the key heads, repeated only as far as the axis needs one per rank
        // (as DeepSpeed-Ulysses does when there are fewer key heads than ranks).
        const double keyHeads = std::max(1.0, tensor.heads / tensor.repeat / otherHeadSplit);
        full = full / tensor.repeat * std::clamp(n / keyHeads, 1.0, tensor.repeat);
    }
    const double bytes = needed->perShard ? full / n : full;
    const bool repeated = forward && tensor.insideBlock && workload_.recompute == Recomputation::Full;
    return PricedConversion{needed->kind, bytes, collectives_.price(needed->kind, mesh_->group(axis), bytes),
                            static_cast<double>(steps.microSteps) * (repeated ? 2.0 : 1.0) * share};
}

double CostModel::conversionSeconds(const CrossingTensor& tensor, std::size_t axis, const NodeStrategy& producer,
                                    AxisLayout from, AxisLayout to, bool forward) const
{
    const auto priced = conversion(tensor, axis, producer, from, to, forward, assumed_);
    return priced ? priced->price.seconds() * priced->times : 0.0;
}

CostModel::ConversionKey CostModel::conversionKey() const
{
    return {bound_, *mesh_, *cluster_, assumed_.microSteps, workload_.recompute == Recomputation::Full};
}

CostModel::StrategyTerms CostModel::strategyTerms(CoarseNodeId id, const NodeStrategy& strategy) const
{
    const CoarseNode& node = coarse_.node(id);
    const NodeFacts& facts = bound_->nodes[id.index()];
    const Stepping& steps = assumed_;
    const Divisors div = divisorsOf(node.kind, strategy, steps);
    StrategyTerms terms;
    double backward = 0;
    terms.computeSeconds = computeSeconds(node, div, backward);
    const double localParameters = storedParameters(facts) / div.weights;
    const int zero = zeroStageOf(strategy, steps);

    double overlappable = 0;
    double waited = 0;
    if (zero < 2) {
        if (const AxisMask axes = gradientAxes(strategy); axes != 0 && localParameters > 0) {
            // Bandwidth term per byte, read off a large message where latency is negligible.
            constexpr double kReferenceBytes = 1e12;
            const double perByte =
                collectives_.price(CollectiveKind::AllReduce, mesh_->groupOf(axes), kReferenceBytes).seconds() /
                kReferenceBytes;
            overlappable += perByte * localParameters * gradientBytesPerParameter();
        }
    } else {
        for (const DataParallelCollective& c : shardedDataParallel(id, strategy, localParameters, steps))
            (waitedFor(c) ? waited : overlappable) += c.seconds();
    }
    terms.communicationSeconds =
        waited + (workload_.overlap ? std::max(0.0, overlappable - backward) : overlappable);
    for (const LossCollective& c : lossCollectives(id, strategy, steps))
        terms.communicationSeconds += c.price.seconds() * c.times;
    for (const ParallelTransfer& t : ringAttention(id, strategy, div, steps))
        terms.communicationSeconds += t.exposedSeconds();

    terms.memoryBytes = strategyMemoryBytes(id, strategy);
    return terms;
}

double CostModel::computeSeconds(const CoarseNode& node, const Divisors& div, double& backward) const
{
    double seconds = 0;
    for (const OpId op : node.ops) {
        const OpCompute time = opCompute(op, node, div, assumed_);
        seconds += time.forward + time.backward + time.recompute;
        backward += time.backward + time.recompute;
    }
    const double localParameters = storedParameters(bound_->nodes[node.id.index()]) / div.weights;
    const double gradientCopies = fsdpGradientSeconds(localParameters, div, assumed_);
    backward += gradientCopies;
    return seconds + gradientCopies + updateSeconds(bound_->nodes[node.id.index()], localParameters, div);
}

double CostModel::strategyComputeSeconds(CoarseNodeId id, const NodeStrategy& strategy) const
{
    const CoarseNode& node = coarse_.node(id);
    double backward = 0;
    return computeSeconds(node, divisorsOf(node.kind, strategy, assumed_), backward);
}

double CostModel::strategyMemoryBytes(CoarseNodeId id, const NodeStrategy& strategy) const
{
    const CoarseNode& node = coarse_.node(id);
    const NodeFacts& facts = bound_->nodes[id.index()];
    const Stepping& steps = assumed_;
    const Divisors div = divisorsOf(node.kind, strategy, steps);
    const double localParameters = storedParameters(facts) / div.weights;
    const int zero = workload_.zeroStage;
    const double states = localParameters * (weightBytesPerParameter(facts) / (zero >= 3 ? div.shard : 1.0) +
                                             optimizerStateBytesPerParameter(workload_.optimizer, workload_.optimizerStep) /
                                                 (zero >= 1 ? div.shard : 1.0));
    const double gradients = localParameters * gradientBytesPerParameter() / (zero >= 2 ? div.shard : 1.0);
    const double p = pipeline_.layout.stages;
    const double activations = nodeActivationBytes(node, div, steps) *
                               microBatchesInFlight(pipeline_.layout, 0, steps.microSteps);
    // Gradients freed between steps, with one micro-step, peak apart from the activations
    // (cost/GradientsAtPeak.h): the larger of each node's two. Summed over the nodes that
    // bounds the step's larger of the sums, as evaluate prices it, from above.
    if (workload_.gradientLifetime == GradientLifetime::FreedBetweenSteps && steps.microSteps == 1 && p == 1)
        return states + std::max(gradients, activations);
    return (states + gradients + activations) / p;
}

// priceNode counts, under a plan's stepping: localParameters = stored / div.weights (the
// strategy's alone) and its states divided by div.shard, the group of
// shardAxes(strategy, steps), where steps change only which of the strategy's
// sequence-split axes are tensor axes (so the largest group over those bounds it).
// The parameters' and optimizer states' bytes, and the gradients' apart.
CostModel::StateFloors CostModel::stateFloors(CoarseNodeId id, const NodeStrategy& strategy) const
{
    if (pipeline_.layout.stages > 1)
        return {};
    const CoarseNode& node = coarse_.node(id);
    const NodeFacts& facts = bound_->nodes[id.index()];
    AxisMask sequenceAxes = 0;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a)
        if (strategy.axes[a] == AxisSplit::Sequence)
            sequenceAxes |= AxisMask{1} << a;
    double shard = 1;
    for (AxisMask tensorAxes = sequenceAxes;; tensorAxes = (tensorAxes - 1) & sequenceAxes) {  // every subset
        Stepping steps;
        steps.tensorAxes = tensorAxes;
        shard = std::max(shard, static_cast<double>(shardGroups(strategy, steps).shard.size));
        if (tensorAxes == 0)
            break;
    }
    const double localParameters = storedParameters(facts) / divisorsOf(node.kind, strategy, assumed_).weights;
    const int zero = workload_.zeroStage;
    return {localParameters * (weightBytesPerParameter(facts) / (zero >= 3 ? shard : 1.0) +
                               optimizerStateBytesPerParameter(workload_.optimizer, workload_.optimizerStep) / (zero >= 1 ? shard : 1.0)),
            localParameters * gradientBytesPerParameter() / (zero >= 2 ? shard : 1.0)};
}

double CostModel::strategyStateFloorBytes(CoarseNodeId id, const NodeStrategy& strategy) const
{
    return stateFloors(id, strategy).states;
}

double CostModel::strategyGradientFloorBytes(CoarseNodeId id, const NodeStrategy& strategy) const
{
    return stateFloors(id, strategy).gradients;
}

// priceNode counts each saved activation's bytes x routedShare / max(its divisor, a
// neighbour's) / microSteps: every divisor a product of at most each axis's size (the
// mesh's devices), microSteps 1 for a whole batch. Recomputation keeps other tensors.
double CostModel::activationFloorBytes(CoarseNodeId id) const
{
    if (pipeline_.layout.stages > 1 || workload_.microBatch != 0 || workload_.recompute != Recomputation::None)
        return 0;
    const NodeFacts& facts = bound_->nodes[id.index()];
    double bytes = 0;
    for (const SavedActivation& saved : facts.savedActivations) {
        if (saved.scores && isFusedAttention(workload_.attention))
            continue;
        // The fewer bytes of the two a tensor-parallel split may keep (keptBytes).
        const double kept = saved.castUnderTensorParallelism ? std::min(saved.bytes, saved.castBytes) : saved.bytes;
        bytes += kept * facts.routedShare;
    }
    return bytes / static_cast<double>(mesh_->deviceCount());
}

PlanEvaluation CostModel::evaluate(const Plan& plan) const
{
    PlanEvaluation result;
    evaluate(plan, result);
    return result;
}

void CostModel::checkPlan(const Plan& plan, const std::vector<CoarseNodeId>* only) const
{
    if (only)
        validatePlan(plan, coarse_, *only);
    else
        validatePlan(plan, coarse_);
    if (plan.pipeline.stages != pipeline_.layout.stages)
        throw Error(ErrorCode::InvalidPlan, {},
                    "plan '" + plan.name + "' runs " + std::to_string(plan.pipeline.stages) +
                        " pipeline stage(s); the cost model's mesh is one of " + std::to_string(pipeline_.layout.stages));
    const std::size_t axisCount = mesh_->axisCount();
    if (plan.mesh.size() != axisCount)
        throw Error(ErrorCode::InvalidPlan, {}, "plan '" + plan.name + "' is for a mesh of " +
                                                    std::to_string(plan.mesh.size()) + " axes, not " + mesh_->toString());
    for (std::size_t a = 0; a < axisCount; ++a) {
        if (plan.mesh[a].size != mesh_->axis(a).size)
            throw Error(ErrorCode::InvalidPlan, {},
                        "plan '" + plan.name + "' sizes mesh axis '" + plan.mesh[a].name + "' " +
                            std::to_string(plan.mesh[a].size) + ", the mesh is " + mesh_->toString());
    }
    const auto check = [&](const CoarseNode& node) {
        if (!accepts(node.id, plan.strategy(node.id)))
            throw Error(ErrorCode::InvalidPlan, {},
                        "plan '" + plan.name + "' spreads node '" + node.name + "' over experts, but " +
                            (bound_->nodes[node.id.index()].experts > 0
                                 ? "the ranks of its expert axes do not divide its layer's " +
                                       std::to_string(bound_->nodes[node.id.index()].experts) + " experts"
                                 : std::string("it is no expert of a mixture-of-experts layer")));
    };
    if (only) {
        for (const CoarseNodeId id : *only)
            check(coarse_.node(id));
    } else {
        for (const CoarseNode& node : coarse_.nodes)
            check(node);
    }
}

CostModel::NodeShare CostModel::priceNode(const CoarseNode& node, const NodeStrategy& strategy, const Divisors& div,
                                          double consumedDiv, const std::function<double(std::size_t)>& producedDiv,
                                          const Stepping& steps, const CostAt& at, StepSums& sums,
                                          std::vector<ParallelTransfer>* transfers) const
{
    const NodeFacts& facts = bound_->nodes[node.id.index()];
    const int zero = workload_.zeroStage;
    const double optimizerBytes = optimizerStateBytesPerParameter(workload_.optimizer, workload_.optimizerStep);
    const double gradientBytes = gradientBytesPerParameter();
    NodeShare share;
    for (const OpId id : node.ops) {
        const OpCompute time = opCompute(id, node, div, steps);
        TimeBreakdown& t = at(id).time;
        t.computeSeconds += time.forward + time.backward + time.recompute;
        t.recomputeSeconds += time.recompute;
        sums.forwardCompute += time.forward;
        sums.backwardCompute += time.backward + time.recompute;
    }
    CostBreakdown& own = at(facts.costOp);
    const double localParameters = storedParameters(facts) / div.weights;
    share.localParameters = localParameters;
    own.memory.parameters += localParameters * weightBytesPerParameter(facts) / (zero >= 3 ? div.shard : 1.0);
    own.memory.gradients += localParameters * gradientBytes / (zero >= 2 ? div.shard : 1.0);
    own.memory.optimizerStates += localParameters / (zero >= 1 ? div.shard : 1.0) * optimizerBytes;
    const double update = updateSeconds(facts, localParameters, div);
    own.time.computeSeconds += update;
    own.time.optimizerSeconds += update;
    own.time.computeSeconds += fsdpGradientSeconds(localParameters, div, steps);

    double activations = 0;
    for (std::size_t s = 0; s < facts.savedActivations.size(); ++s) {
        const SavedActivation& saved = facts.savedActivations[s];
        if (saved.scores && isFusedAttention(workload_.attention))
            continue;
        const double divisor =
            saved.asOutput ? std::max(div.output, consumedDiv) : std::max(div.input, producedDiv(s));
        const double bytes = keptBytes(saved, div) * facts.routedShare / divisor / steps.microSteps;
        share.blockActivationBytes += bytes;
        if (!(saved.scores && workload_.recompute == Recomputation::Selective && facts.block >= 0))
            activations += bytes;
    }
    if (facts.block >= 0 && workload_.recompute == Recomputation::Full)
        activations = facts.blockInputBytes / div.input / steps.microSteps;
    if (recomputesPerOp(facts))
        activations = keptPerOpBytes(node, div) / steps.microSteps;
    own.memory.activations += activations;
    if (facts.block >= 0 && zeroStageOf(strategy, steps) >= 3)
        share.blockGatheredBytes = localParameters * gatheredBytesPerParameter(facts);
    share.transient = facts.transientBytes / div.output / steps.microSteps;
    for (const DataParallelCollective& c : shardedDataParallel(node.id, strategy, localParameters, steps)) {
        addCollectiveOver(own.time, c.kind, c.axes, c.price, c.times, c.overheadSeconds);
        const double seconds = c.seconds();
        own.time.dataParallelSeconds += seconds;
        if (waitedFor(c))
            continue;
        share.overlappable += seconds;
        (c.forward ? sums.shardedForward : sums.shardedBackward) += seconds;
    }
    for (const LossCollective& c : lossCollectives(node.id, strategy, steps))
        addCollective(own.time, c.kind, c.axis, c.price, c.times);
    for (ParallelTransfer& t : ringAttention(node.id, strategy, div, steps)) {
        addCollective(own.time, t.kind, t.axis, t.price, t.times * t.exposedShare);
        if (transfers)
            transfers->push_back(std::move(t));
    }
    return share;
}

void CostModel::priceCrossing(const CrossingTensor& tensor, const Plan& plan, const std::vector<bool>& ulyssesAxis,
                              const Stepping& steps, const std::function<CostBreakdown&(int)>& at,
                              std::vector<ParallelTransfer>* transfers) const
{
    const NodeStrategy& producer = plan.strategy(tensor.producer);
    for (std::size_t a = 0; a < mesh_->axisCount(); ++a) {
        if (mesh_->axis(a).size <= 1)
            continue;
        const AxisLayout produced = outputLayout(producer.axes[a]);
        // `consumer`: the node reading the tensor (forward) or whose input gradient it is.
        auto charge = [&](AxisLayout from, AxisLayout to, int slot, bool forward, CoarseNodeId consumer) {
            const auto priced = conversion(tensor, a, producer, from, to, forward, steps);
            if (!priced)
                return;
            // A gather feeds the layer reading the tensor (forward: its consumer; backward,
            // the gradient: its producer); a scatter drains the one that wrote partial sums.
            const bool feeds = priced->kind == CollectiveKind::AllGather;
            const CoarseNodeId gemmNode = feeds == forward ? consumer : tensor.producer;
            const double exposed =
                tensorParallelExposedShare(tensor, priced->kind, priced->price, a, gemmNode, plan, forward, steps);
            addCollective(at(slot).time, priced->kind, a, priced->price, priced->times * exposed);
            if (!transfers)
                return;
            const bool swapsSequenceAndHeads = (from == AxisLayout::Sequence && to == AxisLayout::Hidden) ||
                                               (from == AxisLayout::Hidden && to == AxisLayout::Sequence);
            // Activations with gradients entering or leaving attention's core: q, k, v
            // and the output (not masks, positions or an embedding's own conversion).
            const bool atAttention = coarse_.node(tensor.producer).kind == CoarseNodeKind::BatchedMatMul ||
                                     coarse_.node(consumer).kind == CoarseNodeKind::BatchedMatMul;
            using Purpose = ParallelTransfer::Purpose;
            const CoarseNodeId listedAt = forward ? consumer : tensor.producer;
            if (ulyssesAxis[a] && swapsSequenceAndHeads && tensor.carriesGradient && atAttention)
                transfers->push_back({listedAt, forward ? Purpose::UlyssesForward : Purpose::UlyssesBackward,
                                      priced->kind, a, priced->bytes, priced->price, priced->times, 1.0});
            // Tokens to their experts (a dispatch, or a combine's gradient) and back; an
            // expert's routing weights (made outside it, read by it alone) alike.
            const bool weights = tensor.experts > 0 && bound_->nodes[tensor.producer.index()].experts == 0;
            if (from == AxisLayout::Expert || to == AxisLayout::Expert)
                transfers->push_back({listedAt,
                                      weights ? Purpose::ExpertWeights
                                      : (forward ? to : from) == AxisLayout::Expert ? Purpose::ExpertDispatch
                                                                                    : Purpose::ExpertCombine,
                                      priced->kind, a, priced->bytes, priced->price, priced->times, 1.0});
        };
        std::vector<AxisLayout> forward;
        std::vector<AxisLayout> backward;
        for (std::size_t c = 0; c < tensor.consumers.size(); ++c) {
            const CoarseNodeId consumer = tensor.consumers[c].first;
            const CoarseNode& node = coarse_.node(consumer);
            const AxisSplit split = plan.strategy(consumer).axes[a];
            const AxisLayout needed = requiredInputLayout(node.kind, split);
            if (std::find(forward.begin(), forward.end(), needed) == forward.end()) {
                forward.push_back(needed);
                charge(produced, needed, static_cast<int>(c), true, consumer);
            }
            if (!tensor.carriesGradient)
                continue;
            const AxisLayout gradient = inputGradientLayout(node.kind, split);
            if (std::find(backward.begin(), backward.end(), gradient) == backward.end()) {
                backward.push_back(gradient);
                // Gradients of one tensor from several consumers are summed first,
                // so each distinct layout converts once.
                const AxisLayout target = produced == AxisLayout::Partial ? AxisLayout::Replicated : produced;
                charge(gradient, target, -1, false, consumer);
            }
        }
    }
}

double CostModel::tensorParallelExposedShare(const CrossingTensor& tensor, CollectiveKind kind,
                                             const CollectiveBreakdown& price, std::size_t axis,
                                             CoarseNodeId gemmNode, const Plan& plan, bool forward,
                                             const Stepping& steps) const
{
    const CoarseNode& node = coarse_.node(gemmNode);
    const double seconds = price.seconds();
    if (!workload_.tensorParallelOverlap || !tensor.insideBlock || node.kind != CoarseNodeKind::Linear ||
        (kind != CollectiveKind::AllGather && kind != CollectiveKind::ReduceScatter) || seconds <= 0)
        return 1.0;
    const Divisors div = divisorsOf(node.kind, plan.strategy(gemmNode), steps);
    double gemm = 0;
    for (const OpId id : node.ops) {
        if (bound_->ops[id.index()].flops <= 0)
            continue;
        const OpCompute time = opCompute(id, node, div, steps);
        gemm += forward ? time.forward : time.backward;
    }
    const int chunks = mesh_->axis(axis).size;
    return exposedCommunicationSeconds(seconds, gemm / steps.microSteps, chunks) / seconds;
}

AxisMask CostModel::shardAxes(const NodeStrategy& strategy, const Stepping& steps) const
{
    AxisMask axes = 0;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a) {
        const AxisMask bit = AxisMask{1} << a;
        const bool sequenceParallel = strategy.axes[a] == AxisSplit::Sequence && (steps.tensorAxes & bit) != 0;
        if (synchronizesGradients(strategy.axes[a]) && mesh_->axis(a).size > 1 && !sequenceParallel)
            axes |= bit;
    }
    return axes;
}

CostModel::ShardGroups CostModel::shardGroups(const NodeStrategy& strategy, const Stepping& steps) const
{
    ShardGroups groups;
    groups.axes = shardAxes(strategy, steps);
    groups.shard = mesh_->groupOf(groups.axes);
    for (int replicas = std::gcd(std::max(1, workload_.zeroReplicas), groups.shard.size); replicas > 1; --replicas) {
        if (groups.shard.size % replicas != 0)
            continue;
        if (const auto split = splitGroup(groups.shard, groups.shard.size / replicas)) {
            groups.shard = split->inner;
            groups.replicas = split->outer;
            break;
        }
    }
    return groups;
}

int CostModel::zeroStageOf(const NodeStrategy& strategy, const Stepping& steps) const
{
    return effectiveZeroStage(workload_.zeroStage, mesh_->groupOf(shardAxes(strategy, steps)).size);
}

AxisMask CostModel::gradientAxes(const NodeStrategy& strategy) const
{
    AxisMask axes = 0;
    for (std::size_t a = 0; a < strategy.axes.size(); ++a)
        if (synchronizesGradients(strategy.axes[a]) && mesh_->axis(a).size > 1)
            axes |= AxisMask{1} << a;
    return axes;
}

void CostModel::addCollectiveOver(TimeBreakdown& time, CollectiveKind kind, AxisMask axes,
                                  const CollectiveBreakdown& price, double share, double overheadSeconds) const
{
    const double seconds = addCollectiveParts(time, kind, price, share, overheadSeconds);
    if ((axes & (axes - 1)) == 0) {  // one axis
        time.byAxis[static_cast<std::size_t>(std::countr_zero(axes))] += seconds;
        return;
    }
    constexpr double kReferenceBytes = 1e9;
    AxisSeconds own;
    own.assign(mesh_->axisCount(), 0.0);
    double total = 0;
    for (std::size_t a = 0; a < mesh_->axisCount(); ++a) {
        if (axes & (AxisMask{1} << a)) {
            own[a] = collectives_.price(kind, mesh_->group(a), kReferenceBytes).seconds();
            total += own[a];
        }
    }
    for (std::size_t a = 0; a < mesh_->axisCount(); ++a)
        time.byAxis[a] += seconds * own[a] / total;
}

double CostModel::chargeGradientSync(TimeBreakdown& time, AxisMask axes, const CollectiveBreakdown& price,
                                     double share) const
{
    addCollectiveOver(time, CollectiveKind::AllReduce, axes, price, share);
    time.dataParallelSeconds += price.seconds() * share;
    return price.seconds() * share;
}

double CostModel::transientWithBlocks(double outside, double inside, double blockGathered,
                                      double blockActivation) const
{
    // A block's backward holds again what its forward did not keep.
    const bool perOp = workload_.recompute == Recomputation::Selective &&
                       workload_.selective == SelectiveRecomputation::EveryOtherMatmul;
    if ((workload_.recompute == Recomputation::Full || perOp) && blockCount_ > 0)
        inside += blockActivation;
    double transient = std::max(outside, inside);
    if (workload_.zeroStage >= 3 && blockCount_ > 0)  // the block in use and the prefetched next one
        transient += 2 * blockGathered;
    return transient;
}

double CostModel::hiddenShare(double gradientSync, double overlappableTotal, const StepSums& sums,
                              const Stepping& steps) const
{
    if (!workload_.overlap || overlappableTotal <= 0)
        return 0;
    const int buckets = blockCount_ + 1;
    const double m = steps.microSteps;
    const double exposed =
        exposedCommunicationSeconds(gradientSync, sums.backwardCompute / m, buckets) +
        m * (exposedCommunicationSeconds(sums.shardedForward / m, sums.forwardCompute / m, buckets) +
             exposedCommunicationSeconds(sums.shardedBackward / m, sums.backwardCompute / m, buckets));
    return std::max(0.0, overlappableTotal - exposed) / overlappableTotal;
}

void CostModel::evaluate(const Plan& plan, PlanEvaluation& result) const
{
    checkPlan(plan);
    const std::size_t axisCount = mesh_->axisCount();
    const Stepping steps = steppingOf(plan);
    // Everything anew but the storage of the three big vectors (assigned below).
    PlanEvaluation recycled = std::move(result);
    result = PlanEvaluation{};
    result.perOp = std::move(recycled.perOp);
    result.perNode = std::move(recycled.perNode);
    result.perFamily = std::move(recycled.perFamily);
    result.hbmBytes = hbmBytes();
    result.microBatches = steps.microSteps;
    result.dataParallelDegree = steps.dataParallel;
    CostBreakdown empty;
    empty.time.byAxis.assign(axisCount, 0.0);
    result.perOp.assign(graph_.opCount(), empty);

    // Gradient buckets of ZeRO 0/1, each op's share at its index.
    std::vector<GradientBucket> buckets;
    // Communication that may hide under compute, per op: the gradient reduction (once
    // per step, under the last micro-step's backward) and the parameter gathers and
    // reduce-scatters of ZeRO 2/3 (every micro-step, under its forward or backward).
    std::vector<double> overlappable(graph_.opCount(), 0.0);
    StepSums sums;
    // The largest transient buffer outside the blocks and inside one, and where each lands.
    double largestOutside = -1;
    double largestInside = -1;
    OpId outsideOp;
    OpId insideOp;
    std::vector<double> blockGatheredBytes(static_cast<std::size_t>(blockCount_), 0.0);
    std::vector<double> blockActivationBytes(static_cast<std::size_t>(blockCount_), 0.0);
    std::vector<Divisors> divisors(coarse_.nodes.size());
    for (const CoarseNode& node : coarse_.nodes)
        divisors[node.id.index()] = divisorsOf(node.kind, plan.strategy(node.id), steps);
    // The producer's output divisor of each tensor crossing nodes: a saved anchor input
    // is kept as sharded as it was produced (Megatron's sequence parallelism keeps the
    // sharded input and gathers it again in backward).
    std::vector<double> producedDiv(graph_.tensors().size(), 1.0);
    // What a node's consumers divide its output by: a row-parallel node's followers
    // (bias, dropout) run after the reduction, on the layout its consumers need
    // (sequence-sharded under Megatron's sequence parallelism).
    std::vector<double> consumedDiv(coarse_.nodes.size(), 0.0);
    for (const CrossingTensor& tensor : bound_->crossing) {
        for (const TensorId out : graph_.op(tensor.producerOp).outputs) {
            if (out.isValid())
                producedDiv[out.index()] = divisors[tensor.producer.index()].output;
        }
        double& consumed = consumedDiv[tensor.producer.index()];
        for (const auto& consumer : tensor.consumers) {
            const double input = divisors[consumer.first.index()].input;
            consumed = consumed == 0 ? input : std::min(consumed, input);
        }
    }

    const CostAt perOp = [&](OpId op) -> CostBreakdown& { return result.perOp[op.index()]; };
    for (const CoarseNode& node : coarse_.nodes) {
        const NodeStrategy& strategy = plan.strategy(node.id);
        const NodeFacts& facts = bound_->nodes[node.id.index()];
        const NodeShare share = priceNode(
            node, strategy, divisors[node.id.index()], consumedDiv[node.id.index()],
            [&](std::size_t s) { return producedDiv[facts.savedActivations[s].tensor.index()]; }, steps, perOp, sums,
            &result.parallelTransfers);
        overlappable[facts.costOp.index()] += share.overlappable;
        if (facts.block >= 0) {
            blockActivationBytes[static_cast<std::size_t>(facts.block)] += share.blockActivationBytes;
            blockGatheredBytes[static_cast<std::size_t>(facts.block)] += share.blockGatheredBytes;
        }
        double& largestTransient = facts.block >= 0 ? largestInside : largestOutside;
        if (share.transient > largestTransient) {
            largestTransient = share.transient;
            (facts.block >= 0 ? insideOp : outsideOp) = facts.costOp;
        }
        addGradients(buckets, strategy, share.localParameters, facts.costOp.index(), 1, steps);
    }
    if (outsideOp.isValid() || insideOp.isValid()) {
        const auto largest = [](const std::vector<double>& v) {
            return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
        };
        const double inside = std::max(largestInside, 0.0);
        const double outside = std::max(largestOutside, 0.0);
        const double blockActivation = largest(blockActivationBytes);
        const double transient =
            transientWithBlocks(outside, inside, largest(blockGatheredBytes), blockActivation);
        // At the node whose buffer sets it (a block's, when recomputation's activations do).
        const bool insideSets = insideOp.isValid() && (!outsideOp.isValid() ||
                                                       transientWithBlocks(0, inside, 0, blockActivation) > outside);
        result.perOp[(insideSets ? insideOp : outsideOp).index()].memory.transient += transient;
    }

    // Gradient synchronization (ZeRO 0/1): one bucketed AllReduce per group of data axes
    // and step.
    const double gradientSync = chargeGradients(
        buckets, [&](std::size_t op) -> TimeBreakdown& { return result.perOp[op].time; }, overlappable);

    // Resharding of tensors between coarse nodes, forward and backward.
    std::vector<bool> ulyssesAxis(axisCount);
    for (std::size_t a = 0; a < axisCount; ++a)
        ulyssesAxis[a] = contextParallelVariant(plan, coarse_, a) == ContextParallelVariant::Ulysses;
    for (const CrossingTensor& tensor : bound_->crossing) {
        priceCrossing(
            tensor, plan, ulyssesAxis, steps,
            [&](int slot) -> CostBreakdown& {
                return result.perOp[(slot < 0 ? tensor.producerOp : tensor.consumers[static_cast<std::size_t>(slot)].second)
                                        .index()];
            },
            &result.parallelTransfers);
    }

    // Overlap: the gradient reduction runs under the last micro-step's backward pass,
    // ZeRO 2/3 traffic under each micro-step's forward and backward, a bucket per block.
    double overlappableTotal = 0;
    for (const double seconds : overlappable)
        overlappableTotal += seconds;
    if (const double hidden = hiddenShare(gradientSync, overlappableTotal, sums, steps); hidden > 0) {
        for (std::size_t op = 0; op < overlappable.size(); ++op)
            result.perOp[op].time.hiddenSeconds += overlappable[op] * hidden;
    }

    // Gradients freed between steps, with one micro-step: they live at the step's peak only by
    // what they exceed the activations by.
    if (workload_.gradientLifetime == GradientLifetime::FreedBetweenSteps && steps.microSteps == 1 &&
        !plan.pipeline.active()) {
        double gradients = 0;
        double activations = 0;
        for (const CostBreakdown& op : result.perOp) {
            gradients += op.memory.gradients;
            activations += op.memory.activations;
        }
        const double share = gradientShareAtPeak(gradients, activations);
        for (CostBreakdown& op : result.perOp)
            op.memory.gradients *= share;
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
    if (plan.pipeline.active()) {
        const std::vector<const BlockInstance*> blocks = modelBlocks(families_);
        std::vector<double> boundarySeconds;
        for (const BlockInstance* block : blocks)
            boundarySeconds.push_back(boundarySendSeconds(plan, block->nodes.front(), steps));
        pricePipelineStages(result, plan, coarse_, families_, steps.microSteps, boundarySeconds,
                            workload_.pipelineSendOverlap);
    }
}

}  // namespace tapestry
