#pragma once

#include "graph/DataType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

enum class OptimizerKind : std::uint8_t {
    AdamMixedPrecision,  // fp32 master weights, m and v: 12 bytes per parameter
    SgdMomentum,         // fp32 master weights and momentum: 8 bytes per parameter
};

[[nodiscard]] const char* optimizerName(OptimizerKind kind);

// How the optimizer step updates a 16-bit model from its fp32 master weights: what it reads
// and writes per parameter (optimizerStepBytesPerParameter).
enum class OptimizerStep : std::uint8_t {
    // One fused kernel per group of parameters reads the gradient as it is held and the fp32
    // states, and writes the states and the 16-bit weight: Transformer Engine's FusedAdam with
    // master_weights (Megatron-LM's --use-precision-aware-optimizer). torchtitan's fused AdamW
    // on FSDP2's fp32 sharded parameters and fp32 reduced gradients moves as much (reads 4
    // gradient bytes, writes no 16-bit weight: the next gather casts it).
    Fused,
    // A fused Adam kernel (one kernel reading the fp32 master, gradient and moments, writing
    // the master and moments) on fp32 master copies kept beside the 16-bit model: before it
    // each 16-bit gradient is cast to an fp32 copy (read, write 4 bytes; fp32 gradients are
    // read as held), after it each master is copied into its 16-bit weight (read 4 bytes,
    // write). torch.optim's fused AdamW as a PyTorch training loop runs it, and Megatron-LM's
    // default (without --use-precision-aware-optimizer): MixedPrecisionOptimizer.step casts
    // main_grad into the main parameters' grad, Apex's or Transformer Engine's FusedAdam
    // steps the fp32 main parameters (the distributed optimizer: its shard), then
    // _copy_main_params_to_model_params copies them into the 16-bit weights.
    MasterCopies,
    // The fused step with each fp32 master kept as the 16 bits its bf16 weight lacks
    // (Transformer Engine's FusedAdam with store_param_remainders, for bf16 parameters only):
    // what Megatron-LM's --use-precision-aware-optimizer runs by default with Transformer
    // Engine 2.1 or later. Megatron-Core r0.12 passes store_param_remainders=True whenever TE
    // is 2.1 or later; later releases keep it as OptimizerConfig.store_param_remainders, on by
    // default (--no-store-param-remainders turns it off). The states are 2 bytes per
    // parameter fewer (Adam: a 2-byte remainder and two fp32 moments, 10), and the kernel
    // reads the weight with the remainder to rebuild the master and writes both back.
    FusedRemainders,
};

// "fused", "master-copies", "fused-remainders".
[[nodiscard]] const char* optimizerStepName(OptimizerStep step);
[[nodiscard]] std::optional<OptimizerStep> optimizerStepFromName(std::string_view name);
// The optimizer's states per parameter as `step` keeps them: the fp32 master and the
// optimizer's own (Adam 4 + 8 = 12, SGD with momentum 4 + 4 = 8); FusedRemainders keeps the
// master as a 2-byte remainder (Adam 10).
[[nodiscard]] int optimizerStateBytesPerParameter(OptimizerKind kind, OptimizerStep step);
// Bytes the step moves per parameter it updates, with `gradientBytes` per gradient as held
// and `weightBytes` per 16-bit weight: for mixed-precision Adam (12 state bytes) with 16-bit
// gradients, 2 x 12 + 2 + 2 = 28 fused, (2 + 4) + (2 x 12 + 4) + (4 + 2) = 40 as master
// copies, 2 x 10 + 2 + 2 x 2 = 26 fused with remainders (the weight read and written).
[[nodiscard]] double optimizerStepBytesPerParameter(OptimizerKind kind, OptimizerStep step, double gradientBytes,
                                                    double weightBytes);

// Activation recomputation (training.md, Korthikanti et al. 2022), applied to the
// model's repeated blocks.
enum class Recomputation : std::uint8_t {
    None,       // every activation the backward pass needs is kept
    Selective,  // the attention core (scores, softmax, ·V) is recomputed, its s² tensors not kept
    Full,       // each block keeps only its input and runs its forward again in backward
};

// What Recomputation::Selective recomputes, as the stack that runs it chooses.
enum class SelectiveRecomputation : std::uint8_t {
    // Megatron-LM's --recompute-granularity selective: attention's core, whose s² tensors
    // are not kept (nothing with a fused attention kernel, which keeps none).
    AttentionCore,
    // torchtitan's op-level policy (selective_ac_option "op", parallelize_llama's
    // _custom_policy): each block keeps the outputs of its odd-numbered matmuls (aten.mm
    // in forward order: the first, third, ...) and of attention, and recomputes the
    // even-numbered matmuls and every other op (norms, activations, rotary embedding,
    // residual adds) from the block's input.
    EveryOtherMatmul,
};

// How Recomputation::Full runs a block's forward again in backward: as the stack's
// checkpoint implementation replays it.
enum class CheckpointReplay : std::uint8_t {
    // The whole forward of the block: Megatron-LM's reentrant checkpoint
    // (tensor_parallel.checkpoint) and every reentrant torch.utils.checkpoint.
    WholeBlock,
    // PyTorch's non-reentrant torch.utils.checkpoint (use_reentrant=False, what Composer's
    // FSDP and torchtitan wrap blocks with) stops the replay as soon as every tensor the
    // backward needs is back (early stop, the default since PyTorch 2.1: pytorch/pytorch
    // pull request #96866, set_checkpoint_early_stop). Autograd saves a matmul's inputs
    // before its kernel runs, so the block's last linear layer (whose input the replay
    // has just made) and what follows it, saving nothing, are not run again.
    StopsEarly,
};

// How the model's memory-bound ops run, which decides both what autograd keeps for backward
// besides the weights and what those ops move through memory: as stacks built of fused kernels
// run them (Korthikanti et al.'s accounting, CostModel.h), or as eager PyTorch does, running the
// model's modules op by op as the graph has them (Hugging Face's models, the PyTorch export's).
// One fact: an op run by autograd one at a time is a kernel of its own and saves what its
// derivative needs; a fused kernel is one autograd function that saves what its author chose.
enum class SavedActivations : std::uint8_t {
    // Megatron-LM and Transformer Engine: fused norms keep their input, fused SwiGLU its two
    // inputs (the activation function recomputed), the loss's fp32 softmax is updated in place.
    // A node's memory-bound ops run as one kernel that reads what enters it and writes what
    // leaves it, backward about twice that.
    Fused,
    // Eager PyTorch: on top of those, the activation function's output (the product of a gated
    // MLP saves both its factors), an RMS norm written as ops (transformers' LlamaRMSNorm,
    // torch.nn.RMSNorm) keeps its input upcast to fp32 and the normalized tensor its weight
    // multiplies, and the loss (cross_entropy on the fp32 logits) keeps the fp32
    // log-probabilities, whose backward holds two more fp32 copies of the logits' size. Each
    // memory-bound op outside a matmul's node runs as its own kernel, forward and backward, at
    // the types it runs in (the RMS norm in fp32 with its casts, the loss on fp32 logits), and
    // gradients that meet at a tensor are summed apart (cost/EagerKernelBytes.h); an activation
    // function after a matmul stays one kernel (torch's activations are one op each).
    Eager,
};

// Whether the gradients outlive the step: in a buffer kept from step to step (Megatron-LM's
// contiguous gradient buffer, DeepSpeed's, FSDP1's default), or freed between steps and
// allocated again during backward (optimizer.zero_grad(set_to_none=True), PyTorch's default
// since 2.0, as torchtitan and the PyTorch export run it; FSDP2 frees its sharded ones too).
// Freed, with one micro-step per step, they count only by what they exceed the activations
// by (cost/GradientsAtPeak.h).
enum class GradientLifetime : std::uint8_t {
    Persistent,
    FreedBetweenSteps,
    // Kept from step to step (memory as Persistent) and zeroed in place every step: Megatron-LM's
    // training loop calls zero_grad_buffer() on each model chunk every iteration (buffer reset:
    // grad_data.zero_()), the whole local buffer whatever the optimizer shards. The step also
    // writes every gradient the rank holds once, as priced (ZeRO 2's shard under ZeRO 2, as its
    // gradient memory is), with the optimizer's update.
    ZeroedEachStep,
};

// How the step clips the gradients by their global norm before the update. Both kinds read
// every gradient the optimizer steps once for the norm (fp32: Megatron-LM's main gradients,
// FSDP2's sharded ones; the norm itself is one number all-reduced); they differ in when
// they scale the gradients by max_norm / norm.
enum class GradientClipping : std::uint8_t {
    None,
    // Scaled only when the norm exceeds the limit: Megatron-Core's clip_grad_by_total_norm_fp32
    // multiplies the gradients (multi_tensor_scale) only if max_norm / (norm + 1e-6) < 1, a
    // test on the host. Whether it does depends on the data; priced as not scaling (the norm's
    // read only). Megatron-LM's --clip-grad (1.0 by default; 0 turns it off).
    AboveLimit,
    // Scaled every step: torch.nn.utils.clip_grads_with_norm_ multiplies every gradient by the
    // coefficient clamped to 1 (torch._foreach_mul_), to spare the host a sync on the test, so
    // a read and a write of each gradient more than the norm's read. torchtitan's train step
    // (dist_utils.clip_grad_norm_ with training.max_norm, 1.0 by default) calls it every step,
    // with no setting that turns it off.
    EveryStep,
};

[[nodiscard]] const char* recomputationName(Recomputation recompute);
[[nodiscard]] std::optional<Recomputation> recomputationFromName(std::string_view name);
// "whole-block", "stops-early".
[[nodiscard]] const char* checkpointReplayName(CheckpointReplay replay);
[[nodiscard]] std::optional<CheckpointReplay> checkpointReplayFromName(std::string_view name);
// "fused", "eager".
[[nodiscard]] const char* savedActivationsName(SavedActivations saved);
[[nodiscard]] std::optional<SavedActivations> savedActivationsFromName(std::string_view name);
// "persistent", "freed-between-steps", "zeroed-each-step".
[[nodiscard]] const char* gradientLifetimeName(GradientLifetime lifetime);
[[nodiscard]] std::optional<GradientLifetime> gradientLifetimeFromName(std::string_view name);
// "none", "above-limit", "every-step".
[[nodiscard]] const char* gradientClippingName(GradientClipping clipping);
[[nodiscard]] std::optional<GradientClipping> gradientClippingFromName(std::string_view name);
// "attention-core", "every-other-matmul".
[[nodiscard]] const char* selectiveRecomputationName(SelectiveRecomputation selective);
[[nodiscard]] std::optional<SelectiveRecomputation> selectiveRecomputationFromName(std::string_view name);

// How attention's core (QKᵀ, softmax, ·V) runs: as one fused kernel that never writes
// the s×s scores to memory, or as separate kernels (Megatron-LM before FlashAttention).
// Fused kernels differ in speed by implementation (cost/AttentionKernelRate.h):
// FlashAttention-2's (flash-attn 2.x, PyTorch SDPA's flash backend since 2.2; what
// gpu.attentionFraction measures), cuDNN's (Transformer Engine's FusedAttention, which
// Megatron-LM and NeMo run by default on Hopper and later: its warp-specialized kernels use
// Hopper's asynchronous tensor cores), the Triton FlashAttention (FlashAttention's first
// algorithm in Triton, slower than FlashAttention-2, backward most: llm-foundry's
// attn_impl: triton), or FlashAttention itself (flash-attn 1.x, Dao et al. 2022: one thread
// block per batch and head, about half FlashAttention-2's rate; llm-foundry's attn_impl:
// flash before FlashAttention-2, July 2023).
enum class AttentionKernel : std::uint8_t { FlashAttention2, Unfused, Cudnn, Triton, FlashAttention1 };

// Their names: cost/AttentionKernelNames.h.
// Whether the kernel keeps the s×s scores on chip (every kernel but Unfused).
[[nodiscard]] bool isFusedAttention(AttentionKernel kernel);

// How grouped-query attention's keys and values reach the attention call, which keeps
// what it is given for backward: a property of the stack's attention call, not of the
// kernel behind it.
enum class KeyValueHeads : std::uint8_t {
    // As the kernel's usual caller passes them: with their own heads to Transformer
    // Engine's cuDNN attention, repeated per query head to every other kernel.
    AsKernel,
    // With their own heads, whatever the kernel: Megatron-Core gives Transformer Engine's
    // DotProductAttention num_gqa_groups (TEDotProductAttention.__init__,
    // megatron/core/extensions/transformer_engine.py) for every backend it picks,
    // FlashAttention-2 included; Hugging Face's flash_attention_2 path does not repeat them.
    Grouped,
    // Repeated to every query head before the call: torchtitan's Llama
    // (torchtitan/models/llama3/model/model.py, repeat_kv before sdpa) and Hugging Face's
    // sdpa and eager paths (repeat_kv), which the kernel then keeps at full size.
    Repeated,
};

// "as-kernel", "grouped", "repeated".
[[nodiscard]] const char* keyValueHeadsName(KeyValueHeads heads);
[[nodiscard]] std::optional<KeyValueHeads> keyValueHeadsFromName(std::string_view name);

// Whether the linear layers of the repeated blocks run their GEMMs in FP8 (E4M3 forward,
// E5M2 gradients) as Transformer Engine and torchao's float8 do; attention, softmax,
// norms, the embedding and the output head stay in computeType, master weights and
// optimizer states in fp32 (cost/KernelTime.h prices it).
enum class Fp8Recipe : std::uint8_t {
    None,
    PerTensor,  // one scale per tensor from its current amax (TE Float8CurrentScaling, torchao tensorwise)
    Block,      // MXFP8: one 8-bit scale per 32 elements, applied by the tensor cores (Blackwell)
};

[[nodiscard]] const char* fp8RecipeName(Fp8Recipe recipe);  // "none", "per-tensor", "mxfp8"
[[nodiscard]] std::optional<Fp8Recipe> fp8RecipeFromName(std::string_view name);

// Which library runs the FP8 linear layers, and how under tensor parallelism: they keep
// different tensors for backward.
enum class Fp8Implementation : std::uint8_t {
    // Transformer Engine (Megatron-LM, NeMo, Megatron-Bridge): a linear layer saves the FP8
    // copy of its input that its forward GEMM read (its wgrad reads that copy again).
    TransformerEngine,
    // torchao's float8 layers under plain tensor parallelism (the PyTorch export's
    // ColwiseParallel/RowwiseParallel; torchtitan's MXFP8, and its rowwise float8): the
    // autograd function saves the input as it arrives and casts it again in backward,
    // save_for_backward(input_hp, weight_hp_t) in Float8Linear's matmul_with_hp_or_float8_args
    // (torchao/float8/float8_linear.py), save_for_backward(input_hp, weight_hp) in MXLinear's
    // mx_mm (torchao/prototype/mx_formats/mx_linear.py): the 16-bit input, gathered in 16 bits
    // under sequence parallelism.
    Torchao,
    // torchtitan's tensorwise float8: Float8Linear as above, but its tensor parallelism
    // applies Float8ColwiseParallel and Float8RowwiseParallel (torchtitan's
    // enable_float8_tensorwise_tp), which cast a layer's input to FP8 before gathering it
    // (torchao/float8/float8_tensor_parallel.py): on a tensor-parallel layer the saved
    // input is that FP8 copy, as Transformer Engine's; elsewhere the 16-bit input.
    TorchaoFloat8TensorParallel,
};

// "transformer-engine", "torchao", "torchao-float8-tp"
[[nodiscard]] const char* fp8ImplementationName(Fp8Implementation implementation);
[[nodiscard]] std::optional<Fp8Implementation> fp8ImplementationFromName(std::string_view name);

// How ZeRO 2 and 3 move the parameters and gradients (training.md, "ZeRO and FSDP"):
// where two implementations differ, the workload names the one a stack runs.
enum class ZeroImplementation : std::uint8_t {
    // PyTorch FSDP (FullyShardedDataParallel, "FSDP1", what Composer wraps): each wrapped
    // block's parameters one flat parameter, one gather per block, the next block's
    // prefetched under compute; its gradient copies cost/FsdpGradientCopies.h.
    Fsdp,
    // PyTorch fully_shard ("FSDP2": torchtitan, the PyTorch export, Megatron-LM's
    // --use-torch-fsdp2): per-parameter sharding, gathered and prefetched per block as
    // FSDP1, with other copies around its collectives (cost/FsdpGradientCopies.h).
    Fsdp2,
    // DeepSpeed ZeRO-3 as of 2021: one gather per parameter tensor, each waited for before
    // the next (DeepSpeed issue #1069 and pull request #1188, June 2021: every all-gather
    // synchronized the device), so the gathers do not hide under compute.
    DeepSpeed,
    // Megatron-FSDP (Megatron-Core's megatron/core/distributed/fsdp, what Megatron-Bridge's
    // use_megatron_fsdp runs): gathered and prefetched per block as FSDP1, into buffers the
    // parameters and main gradients live in, so no copies but its own
    // (cost/FsdpGradientCopies.h).
    MegatronFsdp,
};

// The ZeRO stage that `shardRanks` data-parallel ranks run `zeroStage` at: over one rank
// ZeRO shards nothing and runs as stage 0 (no gathers or reduce-scatters; gradients
// reduced once per step where other ranks sum them), and no stack wraps anything in FSDP.
// The cost model applies it per node (over the node's shard ranks), the exports per plan
// (over its data and context ranks).
[[nodiscard]] int effectiveZeroStage(int zeroStage, int shardRanks);

// "fsdp" (FSDP1), "fsdp2", "deepspeed", "megatron-fsdp".
[[nodiscard]] const char* zeroImplementationName(ZeroImplementation implementation);
[[nodiscard]] std::optional<ZeroImplementation> zeroImplementationFromName(std::string_view name);

// One training step (training.md): a global batch of `batch` sequences of `sequence`
// tokens, processed as micro-batches of `microBatch` sequences per data-parallel rank
// whose gradients accumulate and are synchronized once per step.
// Zero batch or sequence means "as the model's inputs say" (see ShapeBinder).
struct Workload {
    std::int64_t batch = 0;
    std::int64_t sequence = 0;
    // Sequences per data-parallel rank per micro-step; 0: the whole per-rank batch at
    // once (no gradient accumulation).
    std::int64_t microBatch = 0;
    DataType computeType = DataType::BFloat16;  // activations, weights and gradients
    Fp8Recipe fp8 = Fp8Recipe::None;            // FP8 GEMMs in the repeated blocks' linear layers
    // Under fp8: those layers' weights exist in FP8 only, with no 16-bit copy (Transformer
    // Engine's fp8_model_init: Megatron-LM's --fp8-param-gather, NeMo's fp8_params, every FP8
    // recipe of Megatron-Bridge); the optimizer's fp32 main weights are the master copy.
    // `validate` reads it from a run's training.fp8_parameters, plan files keep it
    // (workload.fp8_parameters), search and evaluate take --fp8-parameters.
    bool fp8Parameters = false;
    // As the stack runs its FP8 layers (withStackImplementations: torchtitan's and PyTorch's
    // torchao; without FP8 the default); `validate` reads it from a run's stack, plan files
    // keep it (workload.fp8_implementation).
    Fp8Implementation fp8Implementation = Fp8Implementation::TransformerEngine;
    OptimizerKind optimizer = OptimizerKind::AdamMixedPrecision;
    // As the stack runs its optimizer (withStackImplementations: the PyTorch export's and
    // Megatron-LM's master copies); plan files keep it (workload.optimizer_step), search and evaluate take
    // --optimizer-step.
    OptimizerStep optimizerStep = OptimizerStep::Fused;
    // ZeRO over the data-parallel axes: 1 shards optimizer states, 2 also gradients
    // (reduce-scattered), 3 also parameters (FSDP FULL_SHARD: gathered before forward
    // and again before backward).
    int zeroStage = 0;
    ZeroImplementation zeroImplementation = ZeroImplementation::Fsdp;
    // Hybrid sharding (HSDP) under ZeRO 2/3: a node's data-parallel ranks form this many
    // groups of consecutive ranks (the outermost ranks apart: torchtitan's
    // data_parallel_replicate_degree, the first dimension of fully_shard's 2-D mesh); each
    // group shards the states over its own ranks (data_parallel_shard_degree, with the
    // context-parallel ranks) and the groups all-reduce their gradient shards every
    // micro-step. 1: one group of every data-parallel rank.
    int zeroReplicas = 1;
    Recomputation recompute = Recomputation::None;
    SelectiveRecomputation selective = SelectiveRecomputation::AttentionCore;
    // As the stack replays (withStackImplementations: torchtitan's and PyTorch's stop early);
    // `validate` reads it from a run's stack, plan files keep it (workload.checkpoint_replay).
    CheckpointReplay checkpointReplay = CheckpointReplay::WholeBlock;
    // As the stack saves and runs its memory-bound ops (withStackImplementations: the PyTorch
    // export's eager modules); plan files keep it (workload.saved_activations), search and
    // evaluate take --saved-activations.
    SavedActivations savedActivations = SavedActivations::Fused;
    // As the stack keeps its gradients (withStackImplementations: torchtitan and the PyTorch
    // export free them between steps, Megatron-LM zeroes its buffer each step); plan files keep it (workload.gradient_lifetime),
    // search and evaluate take --gradient-lifetime.
    GradientLifetime gradientLifetime = GradientLifetime::Persistent;
    // How the step clips the gradients by their global norm, as the stack does
    // (withStackImplementations: Megatron-LM above the limit, torchtitan every step; the
    // PyTorch export leaves its training loop to the user). Plan files keep it
    // (workload.gradient_clipping), search and evaluate take --clip-gradients.
    GradientClipping gradientClipping = GradientClipping::None;
    // Tensor-parallel gathers and scatters inside the blocks (sequence parallelism) run in
    // one chunk per rank, pipelined with the GEMM they feed or drain: Transformer Engine's
    // userbuffers overlap (Megatron-LM --tp-comm-overlap, NeMo's ub_tp_comm_overlap,
    // Megatron-Bridge's tp_comm_overlap). Set by `validate` for the NVIDIA recipes that
    // enable it; the commands and plan files keep it off.
    bool tensorParallelOverlap = false;
    // A pipeline stage's sends run beside its other chunks' compute: Megatron-Core's
    // interleaved schedule with overlap_p2p_comm, on by default in Megatron-LM
    // (--no-overlap-p2p-communication turns it off; Megatron-Bridge sets it whenever
    // pp > 1 and vp > 1; NeMo's launcher configs, overlap_p2p_comm: true). Priced for
    // interleaved schedules only (PipelineCost.h); a Megatron-LM search prices it
    // (withStackImplementations), `validate` sets it for those recipes, plan files keep it.
    bool pipelineSendOverlap = false;
    // Data-parallel gradient reduction overlaps the backward pass and FSDP gathers
    // overlap the previous block's compute.
    bool overlap = true;
    AttentionKernel attention = AttentionKernel::FlashAttention2;
    // As the stack calls attention (withStackImplementations: Megatron-LM's grouped,
    // torchtitan's and PyTorch's repeated); `validate` reads it from a run's stack, plan
    // files keep it (workload.key_value_heads).
    KeyValueHeads keyValueHeads = KeyValueHeads::AsKernel;
    // Megatron-LM accumulates and all-reduces gradients in fp32 ("main gradients"),
    // written by the weight-gradient GEMM into fp32 buffers.
    bool fp32MainGradients = false;
    // The type PyTorch FSDP's ZeRO 2/3 reduce-scatters 16-bit gradients in (torchtitan's
    // mixed_precision_reduce, MixedPrecision's reduce_dtype): fp32 by default in both
    // FSDP1 and torchtitan, or the compute type. It sets the reduce-scatter's bytes and the
    // copies around it (cost/FsdpGradientCopies.h); Megatron-LM's main gradients and
    // DeepSpeed reduce as they hold their gradients.
    DataType gradientReduceType = DataType::Float32;
    // Mixture-of-experts routing: each expert takes up to capacityFactor x its even
    // share (top-k / experts) of the tokens; 1 is dropless routing's average.
    // isCapacityFactor says which values are one.
    double capacityFactor = 1.0;

    bool operator==(const Workload&) const = default;
};

// Whether `workload`'s attention call keeps grouped-query keys and values with their own
// heads (KeyValueHeads; AsKernel: under cuDNN attention only).
[[nodiscard]] bool keepsGroupedKeyValues(const Workload& workload);

// The training precision as `--precision` names it: "bf16", "fp16", "fp32", "fp8" (bf16
// with per-tensor FP8 GEMMs) or "mxfp8" (bf16 with MXFP8 GEMMs).
[[nodiscard]] std::string precisionName(const Workload& workload);
// Sets computeType and fp8 from such a name; false (and nothing set) for another name.
[[nodiscard]] bool setPrecision(Workload& workload, std::string_view name);

// The largest global batch, micro-batch and sequence the commands, plan files and imports
// accept (2^24 sequences or tokens): far beyond any real step, and small enough that
// products of sizes stay exact.
constexpr std::int64_t kMaxWorkloadSize = std::int64_t{1} << 24;

// The largest capacity factor the commands and plan files accept: beyond experts /
// top-k every token reaches every expert, and no model has 1024 experts per token.
constexpr double kMaxCapacityFactor = 1024;

// Whether `factor` is a capacity factor: finite, above 0, at most kMaxCapacityFactor.
[[nodiscard]] bool isCapacityFactor(double factor);
// `factor` as people write it: "1", "1.25".
[[nodiscard]] std::string capacityFactorText(double factor);

}  // namespace tapestry
