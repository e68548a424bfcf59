#pragma once

#include "cluster/CollectiveCost.h"
#include "cluster/DeviceMesh.h"
#include "cost/PipelineCost.h"
#include "cost/PlanEvaluation.h"
#include "cost/ShapeBinder.h"
#include "cost/UniformPlan.h"
#include "cost/Workload.h"
#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tapestry {

class Graph;
struct ExpertMembership;
struct FoldFacts;
struct FoldedModel;
struct InstanceRepeats;
struct PricingClasses;

// Prices plans for one model, cluster, mesh and workload (cost-model.md, training.md).
// Everything that does not depend on the plan (flops, bytes, parameters, tensors
// crossing coarse nodes, block instances) is computed once here, so evaluating a plan
// is a pass over nodes and edges.
//
// The graph is bound to the global batch; the step runs as micro-steps (gradient
// accumulation) of batch / micro-steps sequences each (Stepping below). Per device and step:
// - compute (cost/KernelTime.h): matmuls forward + two backward GEMMs as rooflines;
//   attention's core either as one fused kernel (forward + backward at the GPU's
//   attention share of the peak, backward recomputing the scores, causal models
//   computing half the scores) or as separate kernels that write the s x s scores;
//   the other ops of a coarse node as one fused memory-bound kernel that reads what
//   enters the node and writes what leaves it; activation recomputation repeats the
//   forward work of the recomputed part; the optimizer updates the local parameters.
// - resharding on every tensor that crosses coarse nodes, per mesh axis and
//   micro-step: the producer's output layout converted to each distinct layout its
//   consumers need (forward), each distinct input-gradient layout converted back
//   (backward); full recomputation converts a block's inner tensors forward twice.
//   Under Workload::tensorParallelOverlap a block's gathers and scatters count only the
//   part the GEMM beside them does not hide (tensorParallelExposedShare).
// - context parallelism: an attention core split on the sequence runs ring attention
//   (ringAttention below), counted by the part its own compute does not hide; between
//   sequence-split projections a head-split core is DeepSpeed-Ulysses, whose four
//   all-to-alls (q, k, v in, the output back) are the layouts' conversions.
// - mixture of experts: an expert computes only its routed share of the tokens
//   (top-k x capacity factor / experts of the dense graph's work and activations); under
//   expert parallelism its weights and optimizer states divide by the axis and the
//   tokens travel to it and back as conversions to and from the Expert layout:
//   all-to-alls of top-k x capacity copies of every token, one per layer (each expert's
//   tensors carry their share of it).
// - model outputs reach the loss: a vocabulary-split output pays the vocab-parallel
//   cross-entropy's all-reduces (max, sum of exponentials, target logit per token); a
//   partial-sum output is reduce-scattered first (all-gathered back in backward).
// - data parallelism over the axes a node splits its data on: ZeRO 0/1 all-reduce the
//   gradients once per step (one bucket per axis); ZeRO 2 reduce-scatters them every
//   micro-step and gathers the parameters before each forward; ZeRO 3 (FSDP) gathers
//   them again before backward; ZeRO shards over data-parallel ranks only, so a
//   sequence-parallel node's gradients are all-reduced over the tensor axis every
//   micro-step under ZeRO 2/3 (Stepping::tensorAxes); a node with no shard ranks runs as
//   ZeRO 0 whatever the stage (effectiveZeroStage). Under HSDP (Workload::zeroReplicas)
//   the gathers and reduce-scatters run within each shard group and the groups
//   all-reduce their gradient shards every micro-step. With overlap the reduction hides
//   under backward compute and the gathers under forward/backward compute
//   (cost/Overlap.h), one bucket per block; tensor-parallel collectives are always exposed.
// - FP8 (workload.fp8): the repeated blocks' linear layers run as cost/KernelTime.h's
//   fp8LinearSeconds (GEMMs at the FP8 rate, quantization kernels, the weight cast once
//   per step), keep their saved inputs as FP8 copies and an FP8 weight cache beside the
//   16-bit weights (counted as parameters), or instead of them under fp8Parameters;
//   everything else stays as it was.
// - memory: parameters, gradients (fp32 main gradients if asked), optimizer states,
//   divided over the data-parallel ranks by the ZeRO stage; activations saved for
//   backward for one micro-batch (Korthikanti et al.'s accounting: anchor inputs,
//   normalization inputs, softmax outputs, dropout masks, activation-function inputs,
//   both factors of a product of two activations that need gradients (a gated MLP's
//   gate and up projections: Megatron-LM's and Transformer Engine's fused SwiGLU keep
//   those two and recompute the activation function); only each block's input under
//   full recomputation; no s x s tensors under fused attention or selective
//   recomputation; grouped-query keys and values with their own heads where the kernel
//   takes them so (Transformer Engine's cuDNN attention), as the graph repeats them
//   otherwise (Hugging Face's and torchtitan's repeat_kv before SDPA); under FP8 the
//   fused attention kernel's 16-bit output beside the output projection's FP8 copy of
//   it); the largest transient buffer, plus the
//   gathered parameters of two blocks under ZeRO 3 and one block's activations under
//   full recomputation.
// - pipelines: `cluster` and `mesh` are one stage's devices (cluster/PipelineStages.h)
//   and the plan's pipeline has `pipeline`'s stages; every node is priced on its
//   stage's devices and PipelineCost.h adds the stages up.
class CostModel {
    struct BoundFacts;  // what the constructor binds (defined below)

public:
    // Keeps references to all arguments but the pipeline; they must outlive the model.
    CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families, const Cluster& cluster,
              const DeviceMesh& mesh, const Workload& workload, PipelineSetting pipeline = {});
    // The same of a folded model's graph, coarse graph and families, bound from what its
    // fold found once (FoldedModel::foldFacts) instead of walking every layer again (found
    // here when it has none). Throws Error(InvalidArgument) when they are another model's.
    CostModel(const FoldedModel& model, const Cluster& cluster, const DeviceMesh& mesh, const Workload& workload,
              PipelineSetting pipeline = {});

    // Throws Error(InvalidPlan) if the plan does not fit the coarse graph, the mesh or
    // the pipeline's stage count.
    [[nodiscard]] PlanEvaluation evaluate(const Plan& plan) const;
    // The same into `result`, reusing the storage of its per-op, per-node and per-family
    // vectors (a search prices thousands of plans and keeps few).
    void evaluate(const Plan& plan, PlanEvaluation& result) const;
    // The same total, stages, micro-batches and data-parallel degree, without the
    // per-op, per-node and per-family breakdowns and the transfer list (left empty):
    // a plan that gives every instance of a top-level family its representative's
    // strategies (as the stack searches build them) is priced one class of
    // interchangeable nodes and tensors at a time (cost/PricingClasses.h), so its price
    // does not grow with the model's depth; any other plan is priced by evaluate().
    // Equal to evaluate()'s total up to rounding.
    void evaluateTotals(const Plan& plan, PlanEvaluation& result) const;
    // `plan` checked once to be priced by classes: nothing when some node does not
    // repeat its family representative's strategy (or the plan is not of this graph).
    [[nodiscard]] std::optional<UniformPlan> uniformPlan(Plan plan) const;
    // evaluateTotals of a checked plan, without the check when this model shares the
    // classes it was checked against (withTechniques and rebound copies do).
    void evaluateTotals(const UniformPlan& plan, PlanEvaluation& result) const;
    // A lower bound on the memory evaluateTotals prices `plan` at, without a pipeline (0 on
    // one, or where this model does not share the classes it was checked against): each
    // node's strategyStateFloorBytes, strategyGradientFloorBytes and activationFloorBytes
    // under the plan's own strategy, one member per pricing class times their count;
    // where gradients are freed between steps, the gradients and the activations summed
    // apart and the larger counted. A few dozen classes: far cheaper than the pricing.
    [[nodiscard]] double memoryFloorBytes(const UniformPlan& plan) const;
    // The classes evaluateTotals prices by (built on first use, shared by withTechniques
    // copies: they depend on the bound shapes only).
    [[nodiscard]] const PricingClasses& pricingClasses() const;
    // What each block of a uniform plan costs (in modelBlocks() order), the nodes before
    // the first block and after the last, and the largest transient buffer: evaluate()'s
    // per-node costs summed over each block's nodes (up to rounding), priced by classes,
    // so without growing with depth. What balancing a pipeline's stages reads. Nothing for
    // a plan unlike across a family's instances.
    struct BlockCosts {
        std::vector<CostBreakdown> blocks;
        CostBreakdown before;
        CostBreakdown after;
        double transient = 0;
    };
    [[nodiscard]] std::optional<BlockCosts> blockCosts(const Plan& plan) const;

    // This model with other training techniques. Recomputation and ZeRO (its stage and HSDP replicas) enter
    // only the pricing of a plan, not the shapes and facts bound here, so the copy skips
    // the binding (a search tries several techniques per mesh and micro-batch).
    [[nodiscard]] CostModel withTechniques(Recomputation recompute, int zeroStage, int zeroReplicas) const;
    // This model for another stage cluster, mesh, workload and pipeline (kept by
    // reference, like the constructor's arguments) that bind the same shapes and facts:
    // the same batch and sequence as bound, compute type, attention kernel, K/V heads
    // kept, saved activations (eager PyTorch keeps more), FP8 recipe and implementation
    // and capacity factor (the mesh, pipeline, micro-batch and techniques enter only the
    // pricing). The copy skips the binding: a search prices many meshes and workloads.
    // Nothing when the binding would differ. Throws as the constructor does for FP8.
    [[nodiscard]] std::optional<CostModel> rebound(const Cluster& cluster, const DeviceMesh& mesh,
                                                   const Workload& workload, PipelineSetting pipeline) const;

    // A tensor leaving its producer's coarse node.
    struct CrossingTensor {
        double bytes = 0;
        // Keys or values entering attention after grouped-query attention repeated them
        // per query head: `repeat` query heads per key head, `heads` after the repeat
        // (1 and 0 for every other tensor).
        double repeat = 1;
        double heads = 0;
        bool carriesGradient = false;
        // Producer and every consumer lie in one block instance: full recomputation
        // converts it forward a second time.
        bool insideBlock = false;
        // Mixture of experts: one expert's tensor, made inside it or read by it alone (its
        // routing weights), in a layer of `experts` (0: neither); it holds `expertTokens` /
        // experts of the dense graph's rows (the expert's routed tokens) and moves in one
        // collective with the layer's other experts'. Entering every expert, each token
        // reaches `routedCopies` of them (top-k x capacity factor).
        int experts = 0;
        double expertTokens = 1;
        double routedCopies = 1;
        CoarseNodeId producer;
        OpId producerOp;
        std::vector<std::pair<CoarseNodeId, OpId>> consumers;  // distinct nodes, first reading op
    };

    // The terms evaluate() adds up, for searchers that price choices one by one.
    struct StrategyTerms {
        double computeSeconds = 0;
        // The node's gradient synchronization, parameter gathers and loss collectives,
        // linearized: bandwidth terms only (evaluate() adds per-axis latencies once),
        // with overlap hiding under the node's own backward compute at most.
        double communicationSeconds = 0;
        // Parameters, gradients, optimizer states and saved activations (everything
        // evaluate() counts except the transient buffers); in a pipeline, the share of
        // an evenly split first stage: 1/p of the states, the activations of the
        // micro-batches it keeps in flight over p.
        double memoryBytes = 0;
    };
    [[nodiscard]] StrategyTerms strategyTerms(CoarseNodeId node, const NodeStrategy& strategy) const;
    // StrategyTerms::memoryBytes alone, without pricing the node's time (a searcher sums
    // it over every member of a group), and StrategyTerms::computeSeconds alone, without
    // its communication (a searcher's bound).
    [[nodiscard]] double strategyMemoryBytes(CoarseNodeId node, const NodeStrategy& strategy) const;
    [[nodiscard]] double strategyComputeSeconds(CoarseNodeId node, const NodeStrategy& strategy) const;
    // Lower bounds on the memory evaluate() counts at `node` in any plan, without a
    // pipeline (0 on one; the transient buffers, never negative, are left out): the
    // parameters and optimizer states it keeps under `strategy`, and its gradients, each
    // sharded over the most ranks any plan's stepping shards them on; and its saved
    // activations, spread over every device of the mesh, counted only where no plan's
    // stepping can change them (a whole batch and no recomputation; 0 elsewhere).
    [[nodiscard]] double strategyStateFloorBytes(CoarseNodeId node, const NodeStrategy& strategy) const;
    [[nodiscard]] double strategyGradientFloorBytes(CoarseNodeId node, const NodeStrategy& strategy) const;
    [[nodiscard]] double activationFloorBytes(CoarseNodeId node) const;
    [[nodiscard]] const std::vector<CrossingTensor>& crossingTensors() const { return bound_->crossing; }
    // Per-step time of converting `tensor` from `from` to `to` along `axis` when its
    // producer uses `producer` (which fixes how the other axes shard it), in the forward
    // pass or the backward pass. Zero if no collective.
    [[nodiscard]] double conversionSeconds(const CrossingTensor& tensor, std::size_t axis, const NodeStrategy& producer,
                                           AxisLayout from, AxisLayout to, bool forward) const;
    // Everything conversionSeconds() reads besides its arguments: two models with equal
    // keys price every conversion alike (as withTechniques copies do that differ in the
    // ZeRO stage, or in a recomputation other than full), so a searcher may price a
    // model's tensor terms once for both.
    // It owns or copies what it names, so a key kept past its model never matches
    // another model's facts or mesh that happen to sit at the same address.
    struct ConversionKey {
        std::shared_ptr<const BoundFacts> facts;  // the crossing tensors (shared by the copies)
        DeviceMesh mesh;                          // by value: its axes and groups
        Cluster cluster;                          // by value: what the collectives price from
        int microSteps = 1;
        bool recomputesBlocks = false;  // full recomputation converts a block's tensors twice

        bool operator==(const ConversionKey&) const = default;
    };
    [[nodiscard]] ConversionKey conversionKey() const;

    [[nodiscard]] const ShapeBinder& shapes() const { return binder_; }
    [[nodiscard]] const DeviceMesh& mesh() const { return *mesh_; }
    [[nodiscard]] const Workload& workload() const { return workload_; }
    [[nodiscard]] const PipelineSetting& pipeline() const { return pipeline_; }
    [[nodiscard]] double hbmBytes() const;
    // How a step is cut into micro-steps (training.md: B = m x b x d): d, the ranks a
    // micro-step spreads its micro-batches of b sequences over, and m, the micro-steps
    // per optimizer step (batch / (b x d), at least 1; 1 without a micro-batch size).
    // With them, the plan's tensor axes: those on which some node splits its weights. A
    // node that splits the sequence on one runs sequence parallelism, whose gradients the
    // stacks sum over the tensor ranks and never shard there (Megatron-LM's distributed
    // optimizer, FSDP and DeepSpeed shard over data-parallel ranks only).
    struct Stepping {
        int dataParallel = 1;
        int microSteps = 1;
        AxisMask tensorAxes = 0;
    };
    // A plan's stepping: d is the product of the axes on which the anchors outside experts
    // carrying most of their forward work split the batch. Axis names never matter.
    [[nodiscard]] Stepping steppingOf(const Plan& plan) const;
    // The stepping strategyTerms() and conversionSeconds() assume while they price nodes
    // one by one without a plan: every axis but the last data-parallel (Megatron-LM's
    // layout, tensor parallelism innermost), the one axis of a 1-D mesh, and no tensor axes
    // (ZeRO shards over every axis a node sums its gradients on; the sequence-parallel
    // nodes this leaves wrong are norms, of few parameters). evaluate() uses the plan's own
    // (PlanEvaluation::microBatches, dataParallelDegree).
    [[nodiscard]] int microSteps() const { return assumed_.microSteps; }
    [[nodiscard]] int dataParallelDegree() const { return assumed_.dataParallel; }
    // Whether attention is causal (attentionIsCausal: the graph builds a triangular mask,
    // or a constant whose values are a causal mask is applied to the scores).
    [[nodiscard]] bool causalAttention() const { return causal_; }

    // A tensor kept for the backward pass.
    struct SavedActivation {
        TensorId tensor;
        double bytes = 0;
        // Split as the node's input (anchor and normalization inputs) or as its output
        // (softmax outputs, dropout masks, activation-function inputs).
        bool asOutput = false;
        bool scores = false;  // an s x s attention tensor
        // Under torchtitan's tensorwise float8 (Fp8Implementation::TorchaoFloat8TensorParallel),
        // an FP8 linear layer's input: `bytes` is the 16-bit input its Float8Linear saves,
        // `castBytes` what it keeps when tensor parallelism casts that input to FP8 first
        // (keptBytes).
        bool castUnderTensorParallelism = false;
        double castBytes = 0;
    };
    // Plan-independent facts of a coarse node (exposed for tests and the GUI).
    struct NodeFacts {
        double flops = 0;              // forward flops of the anchor
        double memoryBoundBytes = 0;   // forward bytes of the fused memory-bound kernel
        double parameterElements = 0;  // each parameter counted at the first node reading it
        int parameterTensors = 0;
        // Parameters an earlier node counted (a tied LM head's embedding): stored again
        // only on another pipeline stage.
        double tiedParameterElements = 0;
        // A tensor read by several anchors (q, k and v read one norm output) is kept
        // once, listed at the first of them in node order.
        std::vector<SavedActivation> savedActivations;
        double transientBytes = 0;
        OpId costOp;                   // the op that carries the node's own costs
        int block = -1;                // the outermost block instance holding the node, or -1
        // For the first node of a block instance: the bytes entering the instance (what
        // full recomputation keeps).
        double blockInputBytes = 0;
        // Attention's core (QKᵀ, ·V): the keys (or values) it reads as the projection
        // made them, before grouped-query attention repeats them per head: what ring
        // attention passes around a sequence-split axis. Zero for other nodes.
        double ringBytes = 0;
        // Inside an expert of a mixture-of-experts layer (a scope indexed below the
        // router's TopK, "block_sparse_moe/experts.3"): the layer's expert count and the
        // share of the tokens the expert computes, top-k x capacity factor / experts.
        int experts = 0;
        double routedShare = 1;
        // top-k / experts: the share of the tokens the model's FLOPs count (no capacity padding).
        double modelShare = 1;
        // A linear layer of a repeated block under an FP8 recipe: its GEMMs run in FP8,
        // its saved inputs are kept as FP8 copies, its weights have an FP8 cache (the
        // layers outside blocks, the embedding and the output head, stay in 16 bits as
        // Transformer Engine and torchao's recipes leave them).
        bool fp8 = false;
        // A linear layer of a block instance: its place among the instance's linear layers
        // in forward order (1 for the first); 0 for other nodes. torchtitan's op-level
        // selective recomputation keeps the odd-numbered ones' outputs.
        int linearOrdinal = 0;
        // A node of a block instance where CheckpointReplay::StopsEarly's replay has
        // stopped: the instance's last linear layer and the nodes after it, when none of
        // them keeps a tensor it makes itself (a dropout mask, a softmax output) for backward.
        bool pastReplayStop = false;
    };
    [[nodiscard]] const NodeFacts& facts(CoarseNodeId id) const { return bound_->nodes.at(id.index()); }
    // What op `id`'s memory-bound kernels move per step, unsplit (a share of its fused
    // node's kernel, or its own kernels under SavedActivations::Eager).
    struct MovedBytes {
        double forward = 0;
        double backward = 0;
    };
    [[nodiscard]] MovedBytes memoryBoundBytes(OpId id) const
    {
        const OpFacts& op = bound_->ops.at(id.index());
        return {op.memoryBoundBytes, op.memoryBoundBackwardBytes};
    }
    // Whether the node may take the strategy: the expert split only inside an expert,
    // over axes whose ranks divide the layer's experts (each rank keeps whole experts).
    // evaluate() refuses plans with others; searchers offer only these.
    [[nodiscard]] bool accepts(CoarseNodeId id, const NodeStrategy& strategy) const;

private:
    struct OpFacts {
        double flops = 0;
        // What its memory-bound kernels move forward and in backward: a fused node's share
        // (backward twice the forward), or its own kernels' under SavedActivations::Eager
        // (cost/EagerKernelBytes.h), with the gradient sums and the loss it makes.
        double memoryBoundBytes = 0;
        double memoryBoundBackwardBytes = 0;
        // Matmul operand bytes (activation inputs, weights, output) for the roofline.
        double inputBytes = 0;
        double weightBytes = 0;
        double outputBytes = 0;
        bool scores = false;  // reads or writes an s x s attention tensor
        double keys = 0;      // of those scores: the extent of their last (key) axis
        double headDim = 0;   // of attention's matmuls: the head dimension (0: not attention's)
        // Attention's last matmul (reads the scores, writes the attention output).
        bool attentionOutput = false;
        // Under SavedActivations::Eager, the kernels the op launches per micro-step forward
        // and in backward (its own, its node's anchor's, or the one its node's followers run
        // as; SDPA's, half on each of its two matmuls): none takes less than the host's
        // launch (cost/EagerLaunchFloor.h).
        double forwardKernels = 0;
        double backwardKernels = 0;
    };
    // How a strategy divides a node's work and data.
    struct Divisors {
        double compute = 1;  // every split axis
        double weights = 1;  // axes that shard the weights
        double tensor = 1;   // of those, the tensor-parallel ones (columns, rows, hidden)
        // Axes over which ZeRO shards the node's states: where it sums its gradients, but
        // not where it splits the sequence on a tensor axis (Stepping::tensorAxes).
        double shard = 1;
        double input = 1;    // axes that shard the node's activation input
        double output = 1;   // axes that shard its output
        // Chunk steps of ring attention: the product of the axes on which an attention
        // core splits the sequence (1 without context parallelism).
        double ringSteps = 1;
    };
    [[nodiscard]] Divisors divisorsOf(CoarseNodeKind kind, const NodeStrategy& strategy, const Stepping& steps) const;
    // The bytes `saved` keeps on a node split by `div` (before any divisor): its FP8 copy
    // where tensor parallelism cast a torchao layer's input, else `bytes`.
    [[nodiscard]] static double keptBytes(const SavedActivation& saved, const Divisors& div);
    // Throws Error(InvalidPlan) if the plan does not fit this model (evaluate's checks);
    // with `only`, of those nodes' strategies (the others repeat theirs).
    void checkPlan(const Plan& plan, const std::vector<CoarseNodeId>* only = nullptr) const;
    // evaluateTotals of a plan known to be uniform (PricingClasses::uniform).
    void evaluateByClasses(const Plan& plan, PlanEvaluation& result) const;
    // A uniform plan priced class by class: each block kind's costs, the nodes before and
    // after the blocks, the charges of every tensor class (per slot: the producer's, then
    // each consumer's) and the step's transient buffer.
    struct ClassCosts {
        Stepping steps;
        std::vector<CostBreakdown> kinds;
        CostBreakdown before;
        CostBreakdown after;
        std::vector<std::vector<CostBreakdown>> charges;
        double transient = 0;
    };
    [[nodiscard]] ClassCosts costsByClass(const Plan& plan) const;
    // Sums over the step's nodes that the overlap of data-parallel traffic needs.
    struct StepSums {
        double forwardCompute = 0;
        double backwardCompute = 0;
        double shardedForward = 0;   // ZeRO 2/3 traffic that may hide under forward
        double shardedBackward = 0;  // and under backward
    };
    // What one node keeps apart from its costs: the step-wide parts priced later.
    struct NodeShare {
        double localParameters = 0;
        double overlappable = 0;           // its ZeRO 2/3 traffic that may hide (at its cost op)
        double transient = 0;              // its transient buffer
        double blockGatheredBytes = 0;     // its parameters gathered with its block (ZeRO 3)
        double blockActivationBytes = 0;   // its activations, for its block's recomputation
    };
    using CostAt = std::function<CostBreakdown&(OpId)>;
    // Prices one node's own costs under `plan` (compute, states, activations, its
    // data-parallel, loss and ring-attention collectives) into `at` (per op: its ops'
    // compute, the rest at its cost op), adds to `sums` and returns its share of the
    // step-wide parts. `consumedDiv`: the least input divisor of the nodes reading its
    // outputs (0: none); `producedDiv(saved)`: the output divisor of the node that made
    // a saved tensor crossing into it (1: none).
    NodeShare priceNode(const CoarseNode& node, const NodeStrategy& strategy, const Divisors& div,
                        double consumedDiv, const std::function<double(std::size_t saved)>& producedDiv,
                        const Stepping& steps, const CostAt& at, StepSums& sums,
                        std::vector<ParallelTransfer>* transfers) const;
    // Prices the resharding of one crossing tensor on every axis under `plan` into `at`:
    // a consumer's forward conversion at `at(consumer index)`, the gradient's at `at(-1)`.
    void priceCrossing(const CrossingTensor& tensor, const Plan& plan, const std::vector<bool>& ulyssesAxis,
                       const Stepping& steps, const std::function<CostBreakdown&(int)>& at,
                       std::vector<ParallelTransfer>* transfers) const;
    // Under Workload::tensorParallelOverlap, the share of one gather or scatter of a
    // crossing tensor inside a block that its GEMM does not hide: the GEMM of `gemmNode`
    // (the linear layer the collective feeds or drains, in the same pass) runs in n
    // chunks, each beside the transfer of the next (exposedCommunicationSeconds with n
    // buckets, Overlap.h); 1 for every other collective.
    [[nodiscard]] double tensorParallelExposedShare(const CrossingTensor& tensor, CollectiveKind kind,
                                                    const CollectiveBreakdown& price, std::size_t axis,
                                                    CoarseNodeId gemmNode, const Plan& plan, bool forward,
                                                    const Stepping& steps) const;
    // The step's transient memory from the largest transient buffer of a node outside the blocks
    // (`outside`: the logits and the loss's, at the start of backward) and inside one (`inside`),
    // with the ZeRO 3 prefetch and the block activations recomputation holds again while a block's
    // backward runs (with `inside`, never beside `outside`), from the largest of the blocks'
    // gathered parameters and activations.
    [[nodiscard]] double transientWithBlocks(double outside, double inside, double blockGathered,
                                             double blockActivation) const;
    // Hidden share of the overlappable communication (1 - exposed / overlappable).
    [[nodiscard]] double hiddenShare(double gradientSync, double overlappableTotal, const StepSums& sums,
                                     const Stepping& steps) const;
    // Charges a node's `share` of the gradient all-reduce `price` over the axes `axes`;
    // returns the seconds charged (all of them may hide under backward).
    double chargeGradientSync(TimeBreakdown& time, AxisMask axes, const CollectiveBreakdown& price,
                              double share) const;
    // The axes of more than one device over which a node under `strategy` synchronizes its
    // gradients: DDP and FSDP run one collective over all of them (the flattened data
    // mesh), not one per axis.
    [[nodiscard]] AxisMask gradientAxes(const NodeStrategy& strategy) const;
    // Those of them over which ZeRO shards the node's states.
    [[nodiscard]] AxisMask shardAxes(const NodeStrategy& strategy, const Stepping& steps) const;
    // The ranks of those axes as ZeRO groups them: under HSDP (Workload::zeroReplicas) the
    // consecutive ranks each shards its states over (Divisors::shard) and the replicas of
    // each, a rank apart in every shard group; without it one shard group of them all. A
    // node whose ranks do not split into the workload's replicas (experts on fewer ranks)
    // takes the largest count that divides both and splits evenly over NVLink domains.
    struct ShardGroups {
        AxisMask axes = 0;
        AxisGroup shard;
        AxisGroup replicas;
    };
    [[nodiscard]] ShardGroups shardGroups(const NodeStrategy& strategy, const Stepping& steps) const;
    // The ZeRO stage the node runs at: the workload's over its shard ranks, 0 over none
    // (effectiveZeroStage).
    [[nodiscard]] int zeroStageOf(const NodeStrategy& strategy, const Stepping& steps) const;
    // Adds `share` of a collective over `axes` (and the implementation's own seconds around
    // it) to `time`; byAxis splits it over those axes by each axis's own bandwidth time.
    void addCollectiveOver(TimeBreakdown& time, CollectiveKind kind, AxisMask axes, const CollectiveBreakdown& price,
                           double share, double overheadSeconds = 0) const;
    // Appends everything priceNode reads of a node's own facts, as numbers (PricingClasses):
    // those bound with the shapes (computeOpFacts, computeNodeFacts), then those set after
    // (weights, blocks, experts, FP8: the later facts).
    void pricedFacts(CoarseNodeId id, std::vector<double>& into) const;
    void laterFacts(CoarseNodeId id, std::vector<double>& into) const;
    // Whether pricedFacts of `a` equals that of `b`, told without building them: `a`'s
    // bound facts were copied from `b` (an instance repeating the one before) and their
    // later facts agree. False when it cannot tell.
    [[nodiscard]] bool copiedAlike(CoarseNodeId a, CoarseNodeId b, std::vector<double>& scratchA,
                                   std::vector<double>& scratchB) const;
    [[nodiscard]] Stepping steppingFor(int dataParallel) const;
    // Forward work of the anchors outside experts, in all and by the mesh axes they split
    // the batch on: what a plan's stepping follows (steppingOf). evaluate adds every node
    // once, evaluateTotals each class's member times its count.
    struct BatchWork {
        double total = 0;
        std::vector<double> byAxis;
        AxisMask tensorAxes = 0;  // Stepping::tensorAxes, from every node (experts too)
    };
    void addBatchWork(BatchWork& work, CoarseNodeId node, const NodeStrategy& strategy, double count) const;
    [[nodiscard]] Stepping steppingOf(const BatchWork& work) const;
    // ZeRO 0/1's gradient synchronization (a node's effective stage: zeroStageOf): one
    // bucketed all-reduce per group of data axes and step, each node (or class of alike nodes) charged its share where it lands
    // (an op of evaluate's, a class of evaluateTotals').
    struct GradientBucket {
        AxisMask axes = 0;
        double bytes = 0;                                    // every member's, counts included
        std::vector<std::pair<std::size_t, double>> shares;  // (where it lands, one member's bytes)
    };
    // Adds `count` nodes' gradients under `strategy` (`localParameters` each) to their
    // group's bucket, landing at `where`; nothing when they synchronize none.
    void addGradients(std::vector<GradientBucket>& buckets, const NodeStrategy& strategy, double localParameters,
                      std::size_t where, double count, const Stepping& steps) const;
    // Prices every bucket and charges each share to `at(where)`, adding the seconds that
    // may hide under backward to overlappable[where]; returns the step's seconds of
    // gradient synchronization.
    double chargeGradients(const std::vector<GradientBucket>& buckets,
                           const std::function<TimeBreakdown&(std::size_t)>& at,
                           std::vector<double>& overlappable) const;
    // Bytes per device and micro-batch that enter the block starting at `first` under
    // `plan`: what a pipeline stage boundary before it sends forward (and its gradient back).
    [[nodiscard]] double blockInputBytesPerDevice(const Plan& plan, CoarseNodeId first, const Stepping& steps) const;
    // The time of sending them across the stage boundary. A tensor replicated over an axis
    // inside the NVLink domain (tensor parallelism without sequence parallelism) goes as
    // Megatron-LM's scatter/gather does it (Narayanan et al., SC'21, sec. 4.1): each of
    // the axis's n ranks sends a 1/n slice over its own link and the receiving stage
    // all-gathers the slices over NVLink.
    [[nodiscard]] double boundarySendSeconds(const Plan& plan, CoarseNodeId first, const Stepping& steps) const;
    struct PricedConversion {
        CollectiveKind kind;
        double bytes = 0;  // one call's S
        CollectiveBreakdown price;
        double times = 1;  // how often per step
    };
    [[nodiscard]] std::optional<PricedConversion> conversion(const CrossingTensor& tensor, std::size_t axis,
                                                             const NodeStrategy& producer, AxisLayout from,
                                                             AxisLayout to, bool forward, const Stepping& steps) const;

    // Per-device compute of one op under a strategy: forward + backward, and the part
    // of it that is recomputation.
    struct OpCompute {
        double forward = 0;
        double backward = 0;
        double recompute = 0;
    };
    [[nodiscard]] OpCompute opCompute(OpId op, const CoarseNode& node, const Divisors& div,
                                      const Stepping& steps) const;
    // The node's compute with its optimizer step (at the assumed stepping); adds its
    // backward and recomputed part to `backward`.
    [[nodiscard]] double computeSeconds(const CoarseNode& node, const Divisors& div, double& backward) const;
    // Whether backward runs the op's forward again under the workload's recomputation.
    [[nodiscard]] bool recomputes(const CoarseNode& node, const OpFacts& op) const;
    // torchtitan's op-level selective recomputation: whether it applies to the node (a
    // block's), and the bytes the block keeps at it (its input at the first node, the
    // outputs of an odd-numbered matmul and of attention) for one micro-step, undivided.
    [[nodiscard]] bool recomputesPerOp(const NodeFacts& facts) const;
    [[nodiscard]] double keptPerOpBytes(const CoarseNode& node, const Divisors& div) const;
    [[nodiscard]] double nodeActivationBytes(const CoarseNode& node, const Divisors& div, const Stepping& steps) const;
    [[nodiscard]] double gradientBytesPerParameter() const;
    // The optimizer's update of a node's `localParameters`, per step: the step's bytes on the
    // parameters the rank updates (its ZeRO 1+ shard) and, where the workload zeroes its
    // gradient buffer each step (GradientLifetime::ZeroedEachStep), one write of every
    // gradient it holds (its ZeRO 2+ shard), and where it clips the gradients by their norm
    // (Workload::gradientClipping), one fp32 read of those it updates for the norm, and a
    // read and a write more where it scales them every step, at the memory-bound rate; eager master copies no faster than the host launches their kernels
    // (cost/EagerLaunchFloor.h).
    [[nodiscard]] double updateSeconds(const NodeFacts& facts, double localParameters, const Divisors& div) const;
    // What ZeRO 2/3's reduce-scatter carries per parameter: PyTorch FSDP's gradients in
    // Workload::gradientReduceType; Megatron-LM's fp32 main gradients and DeepSpeed's as held.
    [[nodiscard]] double reduceScatterBytesPerParameter() const;
    // PyTorch FSDP's copies of a node's unsharded parameters and 16-bit gradients around
    // its collectives (cost/FsdpGradientCopies.h, FSDP1's or FSDP2's), per step: ZeRO 2/3
    // over data axes that shard its `localParameters` (div.shard > 1), no fp32 main gradients.
    [[nodiscard]] double fsdpGradientSeconds(double localParameters, const Divisors& div, const Stepping& steps) const;
    // The parameters a node's devices keep: its own, and a tied weight's copy in a pipeline.
    [[nodiscard]] double storedParameters(const NodeFacts& facts) const;
    // strategyStateFloorBytes and strategyGradientFloorBytes at once (one sharding to find).
    struct StateFloors {
        double states = 0;
        double gradients = 0;
    };
    [[nodiscard]] StateFloors stateFloors(CoarseNodeId node, const NodeStrategy& strategy) const;
    // The data-parallel collectives of a node's local parameters over its data axes (one
    // group of them all), per step: (kind, axes, price, overlappable in forward?) for each.
    struct DataParallelCollective {
        CollectiveKind kind;
        AxisMask axes;  // one collective over all of them
        CollectiveBreakdown price;
        double times = 1;
        bool forward = false;  // a parameter gather before forward (else backward side)
        // Per call, the implementation's own time around the collective (host launches,
        // copies: cost/ZeroGatherOverhead.h), on no link.
        double overheadSeconds = 0;

        [[nodiscard]] double seconds() const { return (price.seconds() + overheadSeconds) * times; }
    };
    [[nodiscard]] std::vector<DataParallelCollective> shardedDataParallel(CoarseNodeId node,
                                                                          const NodeStrategy& strategy,
                                                                          double localParameters,
                                                                          const Stepping& steps) const;
    // A ZeRO collective the compute waits for: under DeepSpeed every one (each parameter
    // gather synchronizes the device, which waits for the reduce-scatters in flight too).
    [[nodiscard]] bool waitedFor(const DataParallelCollective& collective) const;
    // The loss collectives of a node's graph outputs on one axis.
    struct LossCollective {
        CollectiveKind kind;
        std::size_t axis;
        CollectiveBreakdown price;
        double times = 1;
    };
    [[nodiscard]] std::vector<LossCollective> lossCollectives(CoarseNodeId node, const NodeStrategy& strategy,
                                                              const Stepping& steps) const;
    // Ring attention on the axes where an attention core splits the sequence, per step:
    // its keys (or values) go around the ring in forward (an all-gather's traffic:
    // (n - 1)/n of the full tensor reaches each rank), again in backward while their
    // gradients come back (a reduce-scatter's). Each transfer overlaps the attention of
    // the chunk in hand: `exposedShare` of it is on the critical path.
    [[nodiscard]] std::vector<ParallelTransfer> ringAttention(CoarseNodeId node, const NodeStrategy& strategy,
                                                              const Divisors& div, const Stepping& steps) const;
    // A weight or what auxiliary ops derive from weights and constants.
    [[nodiscard]] bool isConstant(TensorId id) const;
    // An s x s attention tensor: its last two axes are both the sequence axis.
    [[nodiscard]] bool isScores(TensorId id) const;
    // The smallest form of an activation on its way from the projection that made it
    // (NodeFacts::ringBytes).
    [[nodiscard]] double projectedBytes(TensorId id) const;
    // Whether `id` is attention's output (the ·V matmul's) or a view of it.
    [[nodiscard]] bool isAttentionOutput(TensorId id) const;
    // The constructors': `found` is what a fold found for these graph, coarse graph and
    // families (fold/FoldFacts.h), or null.
    CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families, const Cluster& cluster,
              const DeviceMesh& mesh, const Workload& workload, PipelineSetting pipeline, const FoldFacts* found);
    // The facts of an op or node of a block instance that repeats the one before it are
    // copied from there (fold/InstanceRepeats.h): a deep model binds a few blocks.
    // `membership`: expertMembership's, empty for a model without experts.
    void computeOpFacts(const InstanceRepeats& repeats, const std::vector<bool>& carries,
                        const std::vector<ExpertMembership>& membership);
    // Under SavedActivations::Eager: the memory-bound ops of nodes without an anchor as
    // kernels of their own, an RMS norm's in fp32, the gradient sums and the loss.
    void computeEagerKernels(const InstanceRepeats& repeats, const std::vector<bool>& carries,
                             const std::vector<ExpertMembership>& membership);
    // The share of `input` that memory-bound op `op` reads: what an expert made holds its
    // routed rows only, so an op outside the experts (the layer's combine) reads that share
    // of it; 1 for every other read.
    [[nodiscard]] double expertReadShare(OpId op, TensorId input, const std::vector<ExpertMembership>& membership) const;
    void computeNodeFacts(const InstanceRepeats& repeats, const std::vector<bool>& carries);
    void computeBlocks();
    // Sets NodeFacts::pastReplayStop on the instance's nodes.
    void markReplayStop(const BlockInstance& instance);
    void computeCrossingTensors(const InstanceRepeats& repeats, const std::vector<bool>& carries);
    void computeOutputs();
    void computeExperts(const std::vector<ExpertMembership>& membership);
    void computeFp8();
    // Throws Error(InvalidArgument) when the cluster's GPU cannot run the FP8 recipe.
    void checkFp8() const;
    // Bytes per local parameter kept as weights: the 16-bit copy (none for an FP8 layer under
    // Workload::fp8Parameters), plus the FP8 weight cache of an FP8 layer (fp8WeightCacheBytes).
    [[nodiscard]] double weightBytesPerParameter(const NodeFacts& facts) const;
    // Bytes per local parameter that ZeRO 3 gathers (and holds gathered): the 16-bit weights,
    // or an FP8 layer's FP8 copy under Workload::fp8Parameters (Megatron's fp8_param_gather).
    [[nodiscard]] double gatheredBytesPerParameter(const NodeFacts& facts) const;

    const Graph& graph_;
    const CoarseGraph& coarse_;
    const FamilyTable& families_;
    const Cluster* cluster_;  // pointers: rebound copies the model onto others
    const DeviceMesh* mesh_;
    Workload workload_;
    PipelineSetting pipeline_;
    ShapeBinder binder_;
    CollectiveCost collectives_;
    double dtypeBytes_ = 2;
    Stepping assumed_;
    bool causal_ = false;
    int blockCount_ = 0;
    // Graph outputs that reach the loss: (producer node, producer op, bytes, token rows).
    struct ModelOutput {
        CoarseNodeId producer;
        OpId producerOp;
        double bytes = 0;
        double rows = 0;
    };
    // What the constructor binds (written there only): shared by the copies withTechniques
    // and rebound make, so that a copy costs no more than its few settings.
    struct BoundFacts {
        std::vector<double> blockParameterElements;  // per block instance
        // Per node: the node its bound facts were copied from (InstanceRepeats::nodeBefore).
        std::vector<CoarseNodeId> copiedFrom;
        std::vector<OpFacts> ops;
        std::vector<NodeFacts> nodes;
        std::vector<CrossingTensor> crossing;
        std::vector<ModelOutput> outputs;
    };
    std::shared_ptr<BoundFacts> bound_ = std::make_shared<BoundFacts>();
    struct LazyClasses;
    [[nodiscard]] static std::shared_ptr<LazyClasses> noClassesYet();
    std::shared_ptr<LazyClasses> classes_ = noClassesYet();
};

}  // namespace tapestry
