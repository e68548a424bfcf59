#include "target/StackRules.h"

#include "base/Error.h"
#include "cluster/MeshText.h"
#include "cost/ExpertRouting.h"
#include "cost/PipelineCost.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "plan/PhysicalLayout.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace tapestry {

namespace {

// Every role assignment of the mesh's axes that is monotone from the outside in (data,
// context, tensor), as the degrees it gives: (data, context, tensor).
std::set<std::tuple<int, int, int>> roleDegrees(const std::vector<MeshAxis>& mesh)
{
    std::set<std::tuple<int, int, int>> degrees;
    std::size_t assignments = 1;
    for (std::size_t a = 0; a < mesh.size(); ++a)
        assignments *= 3;
    for (std::size_t code = 0; code < assignments; ++code) {
        int degree[3] = {1, 1, 1};
        int previous = 0;
        bool monotone = true;
        std::size_t rest = code;
        for (const MeshAxis& axis : mesh) {
            const int role = static_cast<int>(rest % 3);
            rest /= 3;
            monotone = monotone && role >= previous;
            previous = role;
            degree[role] *= axis.size;
        }
        if (monotone)
            degrees.emplace(degree[0], degree[1], degree[2]);
    }
    return degrees;
}

std::string listed(const std::vector<std::int64_t>& sizes)
{
    std::string text;
    for (const std::int64_t size : sizes)
        text += (text.empty() ? "" : ", ") + std::to_string(size);
    return text;
}

// Full recomputation replayed otherwise than `stack`'s checkpoint replays it (the price of
// each block's backward differs by its last matmul).
void replayNote(TrainingStack stack, const Workload& w, const char* stackName, std::vector<std::string>& notes)
{
    if (w.recompute != Recomputation::Full || w.checkpointReplay == stackCheckpointReplay(stack))
        return;
    if (w.checkpointReplay == CheckpointReplay::WholeBlock)
        notes.push_back(std::string("full recomputation replaying whole blocks (Megatron-LM's reentrant checkpoint): ") +
                        stackName + "'s non-reentrant checkpoint stops each replay before the block's last matmul");
    else
        notes.push_back(std::string("full recomputation stopping before each block's last matmul (PyTorch's "
                                    "non-reentrant checkpoint): ") +
                        stackName + "'s checkpoint replays the whole block");
}

// ZeRO 2 or 3 by another implementation than `stack`'s (its copies and gathers differ;
// below ZeRO 2 no implementation moves anything of its own).
void zeroImplementationNote(TrainingStack stack, const Workload& w, const char* stackName,
                            std::vector<std::string>& notes)
{
    if (w.zeroStage < 2 || w.zeroImplementation == stackZeroImplementation(stack))
        return;
    const char* written = w.zeroImplementation == ZeroImplementation::DeepSpeed      ? "DeepSpeed's"
                          : w.zeroImplementation == ZeroImplementation::MegatronFsdp ? "Megatron-FSDP's"
                                                                                     : "FSDP1's";
    notes.push_back("ZeRO stage " + std::to_string(w.zeroStage) + " priced as " + written + " gathers and copies: " +
                    stackName + " runs FSDP2 (fully_shard), which copies otherwise");
}

// Whether FP8 layers run by `implementation` keep FP8 copies of their inputs for backward
// (or the 16-bit inputs) under a layout with `tensorParallel` ranks.
bool keepsFp8Inputs(Fp8Implementation implementation, int tensorParallel)
{
    switch (implementation) {
    case Fp8Implementation::TransformerEngine: return true;
    case Fp8Implementation::Torchao: return false;
    case Fp8Implementation::TorchaoFloat8TensorParallel: return tensorParallel > 1;
    }
    return true;
}

std::string fp8LayersName(Fp8Implementation implementation, int tensorParallel)
{
    switch (implementation) {
    case Fp8Implementation::TransformerEngine: return "Transformer Engine's layers";
    case Fp8Implementation::Torchao:
        return tensorParallel > 1 ? "torchao's float8 layers under plain ColwiseParallel and RowwiseParallel"
                                  : "torchao's float8 layers";
    case Fp8Implementation::TorchaoFloat8TensorParallel:
        return tensorParallel > 1 ? "torchao's Float8ColwiseParallel and Float8RowwiseParallel (cast before the gather)"
                                  : "torchao's Float8Linear";
    }
    return {};
}

// FP8 layers priced as another library runs them than `stack`'s, where the two keep other
// tensors for backward under this layout. Only under FP8: a 16-bit plan runs no FP8 layers.
void fp8ImplementationNote(TrainingStack stack, const TrainingStackSettings& s, const char* stackName,
                           std::vector<std::string>& notes)
{
    const Workload& w = s.workload;
    if (w.fp8 == Fp8Recipe::None)
        return;
    const Fp8Implementation runs = stackFp8Implementation(stack, w.fp8);
    const bool pricedCopies = keepsFp8Inputs(w.fp8Implementation, s.tensorParallel);
    if (pricedCopies == keepsFp8Inputs(runs, s.tensorParallel))
        return;
    const std::string priced = "FP8 layers priced as " + fp8LayersName(w.fp8Implementation, s.tensorParallel);
    const std::string ran = std::string(stackName) + " runs " + fp8LayersName(runs, s.tensorParallel);
    if (pricedCopies)
        notes.push_back(priced + ", which keep FP8 copies of their inputs: " + ran +
                        ", which save the 16-bit inputs (more memory)");
    else
        notes.push_back(priced + ", which save their 16-bit inputs: " + ran +
                        ", which keep FP8 copies (less memory)");
}

// Activations priced as another stack's autograd keeps them than `stack`'s (eager modules keep
// more than fused kernels).
void savedActivationsNote(TrainingStack stack, const Workload& w, const char* stackName,
                          std::vector<std::string>& notes)
{
    if (w.savedActivations == stackSavedActivations(stack))
        return;
    if (w.savedActivations == SavedActivations::Eager)
        notes.push_back(std::string("activations and memory-bound ops priced as eager PyTorch modules keep and run "
                                    "them (each op its own kernel): ") +
                        stackName + "'s fused kernels keep less and move fewer bytes");
    else
        notes.push_back(std::string("activations and memory-bound ops priced as fused kernels keep and run them: ") +
                        stackName +
                        "'s eager modules keep more (the activation function's output, RMS norms' fp32 inputs, "
                        "the loss's fp32 log-probabilities) and run each op as its own kernel (slower)");
}

// The optimizer step priced otherwise than `stack` runs it. Megatron-LM runs the fused step
// too where its export asks for it (megatronRunsFusedStep), as megatronFusedStep says.
void optimizerStepNote(TrainingStack stack, const TrainingStackSettings& s, const char* stackName,
                       std::vector<std::string>& notes)
{
    const Workload& w = s.workload;
    const OptimizerStep runs = stack == TrainingStack::Megatron && megatronRunsFusedStep(s) ? megatronFusedStep(w)
                                                                                            : stackOptimizerStep(stack);
    if (w.optimizerStep == runs)
        return;
    // Priced with remainders, run on whole fp32 masters (master copies keep them whole too).
    const std::string wholeMasters = w.optimizerStep == OptimizerStep::FusedRemainders
                                         ? "; and it keeps whole fp32 masters (2 bytes per parameter more)"
                                         : "";
    if (w.optimizerStep == OptimizerStep::MasterCopies)
        notes.push_back(std::string("optimizer step priced on fp32 master copies (16-bit gradients cast to fp32, "
                                    "masters copied back into the weights): ") +
                        stackName + "'s fused optimizer moves fewer bytes");
    else if (runs != OptimizerStep::MasterCopies && w.optimizerStep == OptimizerStep::FusedRemainders)
        notes.push_back(std::string("optimizer states priced with each fp32 master kept as the 16-bit remainder of "
                                    "its bf16 weight (Transformer Engine's store_param_remainders): ") +
                        stackName + " keeps whole fp32 masters (2 bytes per parameter more)");
    else if (runs != OptimizerStep::MasterCopies)
        // Priced fused on whole masters, run with remainders: only megatronFusedStep gives those.
        notes.push_back("optimizer states priced with whole fp32 masters: Megatron-LM's "
                        "--use-precision-aware-optimizer keeps each as the 16-bit remainder of its bf16 weight "
                        "(Transformer Engine 2.1 and later: 2 bytes per parameter less)");
    else if (stack == TrainingStack::Megatron)
        notes.push_back("optimizer step priced as one fused kernel that reads the gradients and writes the 16-bit "
                        "weights: Megatron-LM runs that (--use-precision-aware-optimizer) only for Adam on its "
                        "distributed optimizer, otherwise it steps fp32 main parameters and copies them back into "
                        "the weights (more bytes)" +
                        wholeMasters);
    else
        notes.push_back(std::string("optimizer step priced as one fused kernel that reads the 16-bit gradients and "
                                    "writes the 16-bit weights: ") +
                        stackName +
                        " runs torch.optim on fp32 master copies, casting the gradients and copying the masters "
                        "back (more bytes)" +
                        wholeMasters);
}

// Gradient-norm clipping priced otherwise than `stack` runs it (stackGradientClipping). The
// exports leave a stack's clip as it is (turning it off would change the training, not only
// its speed): Megatron-LM reads the norm every step and scales above --clip-grad (1.0),
// torchtitan scales every step (training.max_norm, 1.0; no setting turns it off), the
// PyTorch export's training step does not clip. Each kind moves more bytes than the one
// before it (None, AboveLimit, EveryStep).
void clippingNote(TrainingStack stack, const Workload& w, const char* stackName, std::vector<std::string>& notes)
{
    const GradientClipping runs = stackGradientClipping(stack);
    if (w.gradientClipping == runs)
        return;
    const auto priced = [](GradientClipping clipping) -> std::string {
        switch (clipping) {
        case GradientClipping::None: break;
        case GradientClipping::AboveLimit:
            return "as clipped by their norm, scaled only above the limit (a read of each fp32 gradient)";
        case GradientClipping::EveryStep:
            return "as clipped by their norm and scaled every step (a read of each fp32 gradient, and a read and a "
                   "write to scale it)";
        }
        return "without clipping by their norm";
    };
    std::string stackClips = std::string(stackName) + "'s training step does not clip them";
    if (runs == GradientClipping::AboveLimit)
        stackClips = std::string(stackName) + " reads their norm every step and scales them when it exceeds "
                                              "--clip-grad 1.0";
    else if (runs == GradientClipping::EveryStep)
        stackClips = std::string(stackName) + " reads their norm and scales them every step (training.max_norm 1.0)";
    notes.push_back("gradients priced " + priced(w.gradientClipping) + ": " + stackClips +
                    (w.gradientClipping < runs ? " (slower)" : " (faster)"));
}

// Gradients priced as kept, freed or zeroed between steps otherwise than `stack` does. Freed
// and kept differ in memory only with one micro-step per step and no pipeline
// (cost/GradientsAtPeak.h); a buffer zeroed each step differs in time, one write of every
// held gradient per step.
void gradientLifetimeNote(TrainingStack stack, const TrainingStackSettings& s, const char* stackName,
                          std::vector<std::string>& notes)
{
    const Workload& w = s.workload;
    const GradientLifetime stacks = stackGradientLifetime(stack);
    const bool freed = w.gradientLifetime == GradientLifetime::FreedBetweenSteps;
    const bool oneMicroStep = w.microBatch <= 0 || w.batch <= w.microBatch * std::max(s.dataParallel, 1);
    if (freed != (stacks == GradientLifetime::FreedBetweenSteps) && oneMicroStep && !s.pipeline.active()) {
        if (freed)
            notes.push_back(std::string("gradients priced as freed between steps (zero_grad(set_to_none=True)), "
                                        "allocated after the activations' peak: ") +
                            stackName + " keeps its gradient buffer from step to step (more memory)");
        else
            notes.push_back(std::string("gradients priced as kept from step to step (a persistent gradient buffer): ") +
                            stackName + " frees them between steps (zero_grad(set_to_none=True)), less memory");
    }
    const bool zeroed = w.gradientLifetime == GradientLifetime::ZeroedEachStep;
    if (zeroed == (stacks == GradientLifetime::ZeroedEachStep))
        return;
    if (zeroed)
        notes.push_back(std::string("gradient buffer priced as zeroed in place every step (one write of every held "
                                    "gradient): ") +
                        stackName + " frees its gradients between steps instead (faster)");
    else
        notes.push_back(std::string("gradients priced without zeroing a buffer each step: ") + stackName +
                        " zeroes its whole gradient buffer every step (zero_grad_buffer: one write of every held "
                        "gradient, slower)");
}

// An interleaved pipeline priced with Megatron-LM's overlapped sends (overlap_p2p_comm),
// exported to a stack whose schedule waits for them.
void sendOverlapNote(const TrainingStackSettings& s, const char* stackName, std::vector<std::string>& notes)
{
    if (pipelineSendsOverlapped(s.pipeline, s.workload.pipelineSendOverlap))
        notes.push_back(std::string("pipeline sends overlapped with the other chunks' compute (Megatron-LM's "
                                    "overlap_p2p_comm): ") +
                        stackName + " is priced waiting for them");
}

// Grouped-query keys and values kept for backward otherwise than `stack`'s attention call
// keeps them (stackKeyValueHeads), in a model where that differs in memory: the file's
// plan holds their own heads where this one holds copies per query head, or the reverse.
void keyValueHeadsNote(TrainingStack stack, const TrainingStackSettings& s, std::vector<std::string>& notes)
{
    const Workload stacks = withStackImplementations(s.workload, stack);
    const bool grouped = keepsGroupedKeyValues(s.workload);
    if (!s.groupedQueryAttention || grouped == keepsGroupedKeyValues(stacks))
        return;
    const char* kept = grouped ? "grouped-query keys and values kept with their own heads (as Megatron-Core hands them "
                                 "to Transformer Engine's attention): "
                               : "grouped-query keys and values kept repeated per query head (repeat_kv before the "
                                 "attention call, as torchtitan and Hugging Face run it): ";
    switch (stack) {
    case TrainingStack::Megatron:
        notes.push_back(std::string(kept) + "Megatron-LM gives Transformer Engine's attention their own heads "
                                            "(num_gqa_groups) and keeps those, less activation memory");
        break;
    case TrainingStack::TorchTitan:
        notes.push_back(std::string(kept) + "torchtitan repeats them per query head before scaled_dot_product_attention "
                                            "(repeat_kv) and keeps the copies, more activation memory");
        break;
    case TrainingStack::PyTorch:
        notes.push_back(std::string(kept) + "the PyTorch export runs the model's repeat per query head before attention "
                                            "(Hugging Face's sdpa path) and keeps the copies, more activation memory");
        break;
    case TrainingStack::Any: break;
    }
}

// None of the stacks runs the Triton FlashAttention or FlashAttention 1.x; each writes
// FlashAttention-2.
void tritonAttentionNote(const Workload& w, const std::string& stack, std::vector<std::string>& notes)
{
    if (w.attention == AttentionKernel::Triton)
        notes.push_back("the Triton FlashAttention: " + stack + " runs FlashAttention-2 (written so), faster");
    else if (w.attention == AttentionKernel::FlashAttention1)
        notes.push_back("FlashAttention 1.x: " + stack + " runs FlashAttention-2 (written so), faster");
}

void megatronNotes(const TrainingStackSettings& s, std::vector<std::string>& notes)
{
    const Workload& w = s.workload;
    const PipelineLayout& pipeline = s.pipeline;
    if (pipeline.active()) {
        if (pipeline.schedule == PipelineSchedule::GPipe)
            notes.push_back("the GPipe schedule: Megatron-LM runs 1F1B (the same bubble, at most p micro-batches of "
                            "activations in flight instead of all)");
        const std::vector<std::int64_t> sizes = chunkBlockCounts(pipeline.chunkStarts, s.layers);
        const std::size_t n = sizes.size();
        if (pipeline.virtualStages > 1 && !equalBlockCounts(sizes, 0, n))
            notes.push_back("chunks of " + listed(sizes) +
                            " blocks: Megatron-LM splits the layers evenly over virtual pipeline stages");
        if (pipeline.virtualStages <= 1 && n > 2 && !equalBlockCounts(sizes, 1, n - 1))
            notes.push_back("stages of " + listed(sizes) +
                            " blocks: Megatron-LM sets only the first and last stage apart from an even split");
    }
    if (s.contextParallel > 1 && w.sequence % (2 * std::int64_t{s.contextParallel}) != 0)
        notes.push_back("sequence " + std::to_string(w.sequence) + ": Megatron-LM balances causal attention with two "
                        "chunks per context-parallel rank and needs a multiple of " +
                        std::to_string(2 * s.contextParallel));
    if (w.recompute == Recomputation::Selective && w.selective != SelectiveRecomputation::AttentionCore)
        notes.push_back("torchtitan's op-level selective recomputation: Megatron-LM's selective recomputation "
                        "recomputes attention's core");
    replayNote(TrainingStack::Megatron, w, "Megatron-LM", notes);
    savedActivationsNote(TrainingStack::Megatron, w, "Megatron-LM", notes);
    optimizerStepNote(TrainingStack::Megatron, s, "Megatron-LM", notes);
    gradientLifetimeNote(TrainingStack::Megatron, s, "Megatron-LM", notes);
    clippingNote(TrainingStack::Megatron, w, "Megatron-LM", notes);
    fp8ImplementationNote(TrainingStack::Megatron, s, "Megatron-LM", notes);
    keyValueHeadsNote(TrainingStack::Megatron, s, notes);
    tritonAttentionNote(w, "Megatron-LM", notes);
    const bool megatronFsdp = w.zeroImplementation == ZeroImplementation::MegatronFsdp;
    if (megatronFsdp && w.zeroStage >= 2 && pipeline.active())
        notes.push_back("ZeRO stage " + std::to_string(w.zeroStage) + " priced as Megatron-FSDP's with a pipeline: "
                        "--use-megatron-fsdp is written here only without pipeline parallelism (written as the "
                        "distributed optimizer)");
    if (w.zeroStage == 3 && !megatronFsdp)  // ZeRO 2 is written as the distributed optimizer
        zeroImplementationNote(TrainingStack::Megatron, w, "Megatron-LM's --use-torch-fsdp2", notes);
    if (w.zeroStage == 2 && !megatronRunsMegatronFsdp(s))
        notes.push_back("ZeRO stage 2: Megatron-LM's distributed optimizer reduce-scatters gradients but keeps a "
                        "whole gradient buffer per rank (ZeRO 1's memory)");
    if (w.zeroStage >= 2 && w.zeroReplicas > 1)
        notes.push_back("HSDP (" + std::to_string(w.zeroReplicas) + " replicas of a shard group): Megatron-LM "
                        "shards over every data-parallel rank");
    if (w.zeroStage == 3 && pipeline.active() && !megatronFsdp)
        notes.push_back("ZeRO stage 3 with a pipeline: Megatron-Core's FSDP2 (--use-torch-fsdp2) is written here "
                        "only without pipeline parallelism");
    // Megatron-LM's validate_args turns overlap_grad_reduce on for these strategies.
    if (megatronRunsMegatronFsdp(s) && w.zeroStage >= 2 && !w.overlap)
        notes.push_back("no overlap of gradient reduction with backward: Megatron-FSDP overlaps it whenever it shards "
                        "gradients (optim_grads, optim_grads_params)");
    if (w.computeType != DataType::BFloat16 && w.computeType != DataType::Float16 && w.computeType != DataType::Float32)
        notes.push_back("compute type " + std::string(dataTypeName(w.computeType)) +
                        ": Megatron-LM trains in fp32, fp16 or bf16 (written as fp32)");
}

void torchTitanNotes(const TrainingStackSettings& s, std::vector<std::string>& notes)
{
    const Workload& w = s.workload;
    if (w.zeroStage == 1)
        notes.push_back("ZeRO stage 1: torchtitan's data parallelism replicates (DDP) or shards parameters too "
                        "(FSDP); written as FSDP that keeps parameters gathered from forward to backward "
                        "(ZeRO 2: the same traffic, less memory)");
    // torchtitan's ParallelDims.fsdp_enabled: dp_shard > 1 or cp > 1.
    if (w.zeroStage == 0 && s.contextParallel > 1)
        notes.push_back("ZeRO stage 0 with context parallelism: torchtitan shards parameters over the context-parallel "
                        "ranks (FSDP) whenever context_parallel_degree is above 1; written as FSDP that keeps "
                        "parameters gathered from forward to backward (ZeRO 2)");
    if (w.recompute == Recomputation::Selective && w.selective != SelectiveRecomputation::EveryOtherMatmul)
        notes.push_back("selective recomputation: Tapestry recomputes attention's core; torchtitan's op-level policy "
                        "saves every second matmul's output and attention's and recomputes the other ops");
    replayNote(TrainingStack::TorchTitan, w, "torchtitan", notes);
    savedActivationsNote(TrainingStack::TorchTitan, w, "torchtitan", notes);
    optimizerStepNote(TrainingStack::TorchTitan, s, "torchtitan", notes);
    gradientLifetimeNote(TrainingStack::TorchTitan, s, "torchtitan", notes);
    clippingNote(TrainingStack::TorchTitan, w, "torchtitan", notes);
    fp8ImplementationNote(TrainingStack::TorchTitan, s, "torchtitan", notes);
    sendOverlapNote(s, "torchtitan", notes);
    zeroImplementationNote(TrainingStack::TorchTitan, w, "torchtitan", notes);
    keyValueHeadsNote(TrainingStack::TorchTitan, s, notes);
    if (w.attention == AttentionKernel::Unfused)
        notes.push_back("unfused attention: torchtitan runs scaled_dot_product_attention (fused)");
    tritonAttentionNote(w, "torchtitan", notes);
    if (w.computeType != DataType::BFloat16 && w.computeType != DataType::Float32)
        notes.push_back("compute type " + std::string(dataTypeName(w.computeType)) +
                        ": torchtitan's mixed precision is bfloat16 or float32 (written as bfloat16)");
    if (w.optimizer == OptimizerKind::SgdMomentum)
        notes.push_back("SGD with momentum: torchtitan's optimizers are Adam and AdamW");
    if (w.fp8 != Fp8Recipe::None && w.fp8Parameters)
        notes.push_back("FP8 weights without a 16-bit copy (Transformer Engine's fp8_model_init): torchao's float8 "
                        "layers keep their bfloat16 weights (written with them)");
    if (w.fp32MainGradients)
        notes.push_back("fp32 main gradients (Megatron-LM's, accumulated by the GEMMs): torchtitan keeps 16-bit "
                        "gradients and reduces them in mixed_precision_reduce");
    if (w.gradientReduceType == DataType::Float16)
        notes.push_back("gradients reduced in fp16: torchtitan's mixed_precision_reduce is bfloat16 or float32 "
                        "(written as bfloat16)");
    if (!w.overlap)
        notes.push_back("no overlap of gradient reduction with backward: torchtitan's data parallelism always "
                        "overlaps it");
    if (s.contextVariant == ContextParallelVariant::Ulysses)
        notes.push_back("DeepSpeed-Ulysses attention: torchtitan's context parallelism is ring attention (written as "
                        "ring attention over the same ranks)");
    if (w.capacityFactor != 1.0)
        notes.push_back("capacity factor " + capacityFactorText(w.capacityFactor) +
                        ": torchtitan routes tokens without a capacity (each expert computes what reaches it)");
    if (s.expertParallel > 1 && s.tensorParallel > 1 && s.expertTensorParallel != 1)
        notes.push_back("tensor-parallel experts: torchtitan's expert parallelism borrows the tensor-parallel ranks "
                        "(its experts are not tensor parallel)");
    if (s.expertParallel > 1) {
        // torchtitan's expert parallelism borrows the context-parallel ranks (and with
        // expert tensor parallelism 1 the tensor-parallel ones), then FSDP's shard ranks.
        const int borrowed = s.contextParallel * (s.expertTensorParallel == 1 ? s.tensorParallel : 1);
        if (torchTitanDataParallel(s).expertParallel != s.expertParallel)
            notes.push_back("experts spread over " + std::to_string(s.expertParallel) + " GPUs: torchtitan's expert "
                            "parallelism takes all " + std::to_string(borrowed) + " context-parallel" +
                            (s.expertTensorParallel == 1 ? std::string(" x tensor-parallel") : std::string()) +
                            " ranks and then data-parallel ones; written without expert parallelism");
        else if (const int shard = s.expertParallel / borrowed; shard > 1 && w.zeroStage == 0)
            notes.push_back("torchtitan takes expert-parallel ranks from FSDP's shard dimension: data parallel " +
                            std::to_string(s.dataParallel) + " written as replicate " +
                            std::to_string(s.dataParallel / shard) + " x shard " + std::to_string(shard) +
                            ", which shards parameters over " + std::to_string(shard) +
                            " GPUs where the plan keeps them whole (ZeRO " + std::to_string(w.zeroStage) + ")");
    }
}

void pyTorchNotes(const TrainingStackSettings& s, std::vector<std::string>& notes)
{
    if (s.workload.recompute == Recomputation::Selective && s.workload.selective != SelectiveRecomputation::AttentionCore)
        notes.push_back("torchtitan's op-level selective recomputation: the PyTorch export's checkpoint policy "
                        "recomputes attention's core");
    replayNote(TrainingStack::PyTorch, s.workload, "the PyTorch export", notes);
    savedActivationsNote(TrainingStack::PyTorch, s.workload, "the PyTorch export", notes);
    optimizerStepNote(TrainingStack::PyTorch, s, "the PyTorch export", notes);
    gradientLifetimeNote(TrainingStack::PyTorch, s, "the PyTorch export", notes);
    clippingNote(TrainingStack::PyTorch, s.workload, "the PyTorch export", notes);
    fp8ImplementationNote(TrainingStack::PyTorch, s, "the PyTorch export", notes);
    sendOverlapNote(s, "the PyTorch export", notes);
    zeroImplementationNote(TrainingStack::PyTorch, s.workload, "the PyTorch export", notes);
    keyValueHeadsNote(TrainingStack::PyTorch, s, notes);
    tritonAttentionNote(s.workload, "the PyTorch export", notes);
    // FSDP applies over the data and context ranks (data parallel 0: the GPUs left, any number).
    if (s.workload.zeroStage < 2 && (s.dataParallel != 1 || s.contextParallel > 1))
        notes.push_back("ZeRO stage " + std::to_string(s.workload.zeroStage) + ": the PyTorch export shards with "
                        "FSDP2, which keeps gathered parameters from forward to backward at best (ZeRO 2's memory)");
    if (s.contextVariant == ContextParallelVariant::Ulysses)
        notes.push_back("DeepSpeed-Ulysses attention: PyTorch's context_parallel is ring attention");
    if (s.expertParallel > 1)
        notes.push_back("expert parallelism: the PyTorch export writes no expert dispatch (all-to-all)");
    if (s.workload.fp8 != Fp8Recipe::None)
        notes.push_back("FP8 training: the PyTorch export names torchao's float8 conversion but does not apply it");
}

}  // namespace

std::vector<TrainingStackSettings> stackLayouts(TrainingStack stack, const std::vector<MeshAxis>& stageMesh,
                                                int expertCount, int keyValueHeads)
{
    std::vector<TrainingStackSettings> layouts;
    if (stack == TrainingStack::Any)
        return layouts;
    // The most data-parallel first: the layout priced first is what a search stopped by
    // its time limit early on has found.
    const std::set<std::tuple<int, int, int>> degrees = roleDegrees(stageMesh);
    for (auto each = degrees.rbegin(); each != degrees.rend(); ++each) {
        const auto& [dp, cp, tp] = *each;
        if (keyValueHeads > 0 && keyValueHeads % tp != 0)
            continue;
        const std::vector<bool> sequenceParallel = tp > 1 ? std::vector<bool>{false, true} : std::vector<bool>{false};
        std::vector<ContextParallelVariant> variants{ContextParallelVariant::None};
        if (cp > 1) {
            variants = {ContextParallelVariant::Ring};
            if (stack == TrainingStack::Megatron)
                variants.push_back(ContextParallelVariant::Ulysses);
        }
        // (expert parallel, expert tensor parallel)
        std::vector<std::pair<int, int>> experts{{1, tp}};
        if (expertCount > 1 && stack != TrainingStack::PyTorch) {
            // torchtitan's experts borrow the tensor-parallel ranks: never tensor parallel.
            const std::vector<int> expertTensorSizes =
                tp > 1 && stack != TrainingStack::TorchTitan ? std::vector<int>{tp, 1} : std::vector<int>{1};
            for (const int expertTensor : expertTensorSizes) {
                const int ranks = dp * cp * (expertTensor == 1 ? tp : 1);
                for (int ep = 2; ep <= std::min(ranks, expertCount); ++ep)
                    if (expertCount % ep == 0 && ranks % ep == 0)
                        experts.emplace_back(ep, expertTensor);
            }
        }
        for (const bool sp : sequenceParallel)
            for (const ContextParallelVariant variant : variants)
                for (const auto& [ep, etp] : experts) {
                    TrainingStackSettings s;
                    s.dataParallel = dp;
                    s.contextParallel = cp;
                    s.tensorParallel = tp;
                    s.sequenceParallel = sp;
                    s.contextVariant = variant;
                    s.expertParallel = ep;
                    s.expertTensorParallel = ep > 1 ? etp : 1;
                    layouts.push_back(std::move(s));
                }
    }
    return layouts;
}

std::vector<int> stackZeroStages(TrainingStack stack, bool pipelined)
{
    switch (stack) {
    case TrainingStack::Megatron: return pipelined ? std::vector<int>{1} : std::vector<int>{1, 3};
    case TrainingStack::TorchTitan: return pipelined ? std::vector<int>{0, 2} : std::vector<int>{0, 2, 3};
    case TrainingStack::PyTorch: return pipelined ? std::vector<int>{2} : std::vector<int>{2, 3};
    case TrainingStack::Any: break;
    }
    return pipelined ? std::vector<int>{1} : std::vector<int>{1, 2, 3};
}

std::vector<int> stackZeroReplicas(TrainingStack stack, const TrainingStackSettings& layout, int domainSize)
{
    if ((stack != TrainingStack::TorchTitan && stack != TrainingStack::PyTorch) || layout.expertParallel > 1 ||
        layout.tensorParallel < 1 || domainSize % layout.tensorParallel != 0)
        return {};
    // Ranks run tp, cp, dp from the inside: a domain holds domainSize / tp of the data ranks.
    const int dataRanks = layout.dataParallel * layout.contextParallel;
    const int shard = domainSize / layout.tensorParallel;
    if (shard >= dataRanks || dataRanks % shard != 0 || shard % layout.contextParallel != 0)
        return {};
    return {dataRanks / shard};
}

std::vector<Recomputation> stackRecomputations(TrainingStack stack, AttentionKernel attention)
{
    if (stackSelectiveRecomputation(stack) == SelectiveRecomputation::AttentionCore && isFusedAttention(attention))
        return {Recomputation::None, Recomputation::Full};
    return {Recomputation::None, Recomputation::Selective, Recomputation::Full};
}

CheckpointReplay stackCheckpointReplay(TrainingStack stack)
{
    return stack == TrainingStack::TorchTitan || stack == TrainingStack::PyTorch ? CheckpointReplay::StopsEarly
                                                                                 : CheckpointReplay::WholeBlock;
}

SelectiveRecomputation stackSelectiveRecomputation(TrainingStack stack)
{
    return stack == TrainingStack::TorchTitan ? SelectiveRecomputation::EveryOtherMatmul
                                              : SelectiveRecomputation::AttentionCore;
}

SavedActivations stackSavedActivations(TrainingStack stack)
{
    return stack == TrainingStack::PyTorch ? SavedActivations::Eager : SavedActivations::Fused;
}

OptimizerStep stackOptimizerStep(TrainingStack stack)
{
    return stack == TrainingStack::PyTorch || stack == TrainingStack::Megatron ? OptimizerStep::MasterCopies
                                                                               : OptimizerStep::Fused;
}

bool megatronRunsMegatronFsdp(const TrainingStackSettings& settings)
{
    return settings.workload.zeroImplementation == ZeroImplementation::MegatronFsdp && !settings.pipeline.active();
}

bool megatronRunsDistributedOptimizer(const TrainingStackSettings& settings)
{
    const int zero = settings.workload.zeroStage;
    return megatronRunsMegatronFsdp(settings) || (zero >= 1 && (zero < 3 || settings.pipeline.active()));
}

bool megatronRunsFusedStep(const TrainingStackSettings& settings)
{
    const Workload& w = settings.workload;
    return w.optimizerStep != OptimizerStep::MasterCopies && w.optimizer == OptimizerKind::AdamMixedPrecision &&
           megatronRunsDistributedOptimizer(settings);
}

OptimizerStep megatronFusedStep(const Workload& workload)
{
    return workload.computeType == DataType::BFloat16 && !workload.fp8Parameters ? OptimizerStep::FusedRemainders
                                                                                 : OptimizerStep::Fused;
}

GradientClipping stackGradientClipping(TrainingStack stack)
{
    switch (stack) {
    case TrainingStack::Megatron: return GradientClipping::AboveLimit;
    case TrainingStack::TorchTitan: return GradientClipping::EveryStep;
    case TrainingStack::PyTorch:
    case TrainingStack::Any: break;
    }
    return GradientClipping::None;
}

GradientLifetime stackGradientLifetime(TrainingStack stack)
{
    switch (stack) {
    case TrainingStack::TorchTitan:
    case TrainingStack::PyTorch: return GradientLifetime::FreedBetweenSteps;
    case TrainingStack::Megatron: return GradientLifetime::ZeroedEachStep;
    case TrainingStack::Any: break;
    }
    return GradientLifetime::Persistent;
}

ZeroImplementation stackZeroImplementation(TrainingStack stack)
{
    return stack == TrainingStack::Any ? ZeroImplementation::Fsdp : ZeroImplementation::Fsdp2;
}

Fp8Implementation stackFp8Implementation(TrainingStack stack, Fp8Recipe recipe)
{
    if (recipe == Fp8Recipe::None || stack == TrainingStack::Megatron || stack == TrainingStack::Any)
        return Fp8Implementation::TransformerEngine;
    // torchtitan's parallelize: enable_float8_tensorwise_tp = enable_float8_linear and not
    // float8_is_rowwise; its MX converter is no float8-linear config.
    if (stack == TrainingStack::TorchTitan && recipe == Fp8Recipe::PerTensor)
        return Fp8Implementation::TorchaoFloat8TensorParallel;
    return Fp8Implementation::Torchao;
}

KeyValueHeads stackKeyValueHeads(TrainingStack stack)
{
    switch (stack) {
    case TrainingStack::Megatron: return KeyValueHeads::Grouped;
    case TrainingStack::TorchTitan:
    case TrainingStack::PyTorch: return KeyValueHeads::Repeated;
    case TrainingStack::Any: break;
    }
    return KeyValueHeads::AsKernel;
}

Workload withStackImplementations(Workload workload, TrainingStack stack)
{
    if (stack == TrainingStack::Any)
        return workload;
    workload.selective = stackSelectiveRecomputation(stack);
    workload.checkpointReplay = stackCheckpointReplay(stack);
    workload.savedActivations = stackSavedActivations(stack);
    workload.optimizerStep = stackOptimizerStep(stack);
    workload.gradientLifetime = stackGradientLifetime(stack);
    workload.zeroImplementation = stackZeroImplementation(stack);
    workload.pipelineSendOverlap = stack == TrainingStack::Megatron;
    workload.gradientClipping = stackGradientClipping(stack);
    workload.fp8Implementation = stackFp8Implementation(stack, workload.fp8);
    workload.keyValueHeads = stackKeyValueHeads(stack);
    return workload;
}

TrainingStack implementationsNamed(TrainingStack recorded, const Workload& workload)
{
    return withStackImplementations(workload, recorded) == workload ? recorded : TrainingStack::Any;
}

bool namesImplementations(const Workload& workload)
{
    const Workload unnamed;
    return workload.selective != unnamed.selective || workload.checkpointReplay != unnamed.checkpointReplay ||
           workload.savedActivations != unnamed.savedActivations ||
           workload.optimizerStep != unnamed.optimizerStep ||
           workload.gradientLifetime != unnamed.gradientLifetime ||
           workload.zeroImplementation != unnamed.zeroImplementation ||
           workload.pipelineSendOverlap != unnamed.pipelineSendOverlap ||
           workload.gradientClipping != unnamed.gradientClipping ||
           workload.fp8Implementation != unnamed.fp8Implementation ||
           workload.keyValueHeads != unnamed.keyValueHeads;
}

std::vector<std::string> stackSettingNotes(TrainingStack stack, const TrainingStackSettings& settings)
{
    std::vector<std::string> notes;
    if (stack == TrainingStack::Any)
        return notes;
    const Workload& w = settings.workload;
    const std::int64_t microBatch = w.microBatch > 0 ? w.microBatch : 1;
    if (w.batch % (microBatch * std::max(settings.dataParallel, 1)) != 0)
        notes.push_back("the global batch " + std::to_string(w.batch) + " is not a multiple of micro-batch " +
                        std::to_string(microBatch) + " x data parallel " + std::to_string(settings.dataParallel));
    switch (stack) {
    case TrainingStack::Megatron: megatronNotes(settings, notes); break;
    case TrainingStack::TorchTitan: torchTitanNotes(settings, notes); break;
    case TrainingStack::PyTorch: pyTorchNotes(settings, notes); break;
    case TrainingStack::Any: break;
    }
    return notes;
}

namespace {

// Experts that do not divide among the expert ranks of `settings`: no stack runs that.
std::vector<std::string> expertNotes(const FoldedModel& model, const TrainingStackSettings& settings)
{
    std::vector<std::string> notes;
    if (settings.expertParallel <= 1)
        return notes;
    const std::vector<ExpertMembership> membership =
        expertMembership(model.graph(), model.coarse, ShapeBinder(model.graph(), settings.workload));
    for (const ExpertMembership& member : membership)
        if (member.experts > 0 && member.experts % settings.expertParallel != 0) {
            notes.push_back("experts spread over " + std::to_string(settings.expertParallel) + " ranks: a layer of " +
                            std::to_string(member.experts) + " experts does not divide among them");
            break;
        }
    return notes;
}

// Where `settings`, the layout inferred from `document`'s plan, does not rebuild that
// plan on the devices (the same for every stack): the same splits over the same ranks,
// however the two meshes factor them (a batch split over [2, 8] is the stack's data
// parallel 16, laid out as [16, 1]).
std::vector<std::string> rebuildNotes(const FoldedModel& model, const PlanDocument& document,
                                      const TrainingStackSettings& settings)
{
    std::vector<std::string> notes;
    try {
        const PlanDocument rebuilt = planFromTrainingStackSettings(settings, model, document.plan.name,
                                                                   planDeviceCount(document.plan));
        const PhysicalLayout layout = physicalLayout(document.plan);
        const PhysicalLayout rebuiltLayout = physicalLayout(rebuilt.plan);
        if (layout == rebuiltLayout)
            return notes;
        if (layout.sizes != rebuiltLayout.sizes)
            notes.push_back("the stage mesh " + meshText(document.plan.mesh) + " is written as " + meshText(rebuilt.plan.mesh) +
                            " (the stack's rank order: data, expert, context, tensor from the outside in)");
        else
            notes.push_back("the plan's splits differ from the layout the stack writes");
    } catch (const Error& error) {
        notes.push_back(error.message());
    }
    return notes;
}

}  // namespace

std::vector<std::string> stackModelNotes(TrainingStack stack, const FoldedModel& model)
{
    if (stack != TrainingStack::Megatron && stack != TrainingStack::TorchTitan)
        return {};
    const bool attention = std::any_of(model.coarse.nodes.begin(), model.coarse.nodes.end(), [](const CoarseNode& node) {
        return node.kind == CoarseNodeKind::BatchedMatMul;
    });
    if (attention)
        return {};
    return {std::string("a model without attention: ") +
            (stack == TrainingStack::Megatron ? "Megatron-LM trains transformers (GPT, BERT, T5)"
                                              : "torchtitan trains transformer language models") +
            "; the PyTorch export runs it"};
}

std::vector<std::string> stackInexpressible(TrainingStack stack, const FoldedModel& model, const PlanDocument& document)
{
    if (stack == TrainingStack::Any)
        return {};
    const TrainingStackSettings settings = trainingStackSettings(model, document, 0);
    std::vector<std::string> notes = stackModelNotes(stack, model);
    notes.insert(notes.end(), settings.notes.begin(), settings.notes.end());
    for (std::string& note : stackSettingNotes(stack, settings))
        notes.push_back(std::move(note));
    for (std::string& note : expertNotes(model, settings))
        notes.push_back(std::move(note));
    return notes.empty() ? rebuildNotes(model, document, settings) : notes;
}

std::vector<TrainingStack> stacksRunning(const FoldedModel& model, const PlanDocument& document)
{
    // The layout is inferred, checked and rebuilt once: only its stack notes differ.
    const TrainingStackSettings settings = trainingStackSettings(model, document, 0);
    if (!settings.notes.empty() || !expertNotes(model, settings).empty())
        return {};
    std::optional<bool> rebuildsExactly;
    std::vector<TrainingStack> running;
    for (const TrainingStack stack : allTrainingStacks()) {
        if (stack == TrainingStack::Any || !stackSettingNotes(stack, settings).empty() ||
            !stackModelNotes(stack, model).empty())
            continue;
        if (!rebuildsExactly)
            rebuildsExactly = rebuildNotes(model, document, settings).empty();
        if (*rebuildsExactly)
            running.push_back(stack);
    }
    return running;
}

}  // namespace tapestry
