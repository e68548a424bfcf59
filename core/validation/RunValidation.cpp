#include "validation/RunValidation.h"

#include "base/Error.h"
#include "cluster/ClusterFile.h"
#include "cost/AttentionKernelNames.h"
#include "cost/CostModel.h"
#include "cluster/PipelineStages.h"
#include "fold/FoldedModel.h"
#include "synth/ModelSynthesizer.h"
#include "target/StackRules.h"
#include "target/TrainingStackSettings.h"

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

// Achievable share of an InfiniBand NIC's line rate (the presets' 24 of 25 and 48 of 50 GB/s).
constexpr double kNicShare = 0.96;

// Why the plan space or the cost model cannot express `run` on any cluster; empty when it can.
std::string planSpaceGap(const PublishedRun& run)
{
    const PublishedRun::Training& t = run.training;
    if (run.model.layers < static_cast<std::int64_t>(t.pipelineParallel) * t.virtualStages)
        return std::to_string(t.pipelineParallel) + " x " + std::to_string(t.virtualStages) + " pipeline chunks for " +
               std::to_string(run.model.layers) +
               " layers: the stack counts the embedding and the loss as layers, the plan space does not";
    if (t.activationOffloadLayers > 0)
        return "activations of " + std::to_string(t.activationOffloadLayers) +
               " layers offloaded to host memory: the cost model prices neither the copies nor the memory they free";
    return {};
}

bool fromTorchTitan(const PublishedRun& run)
{
    return run.source.find("torchtitan") != std::string::npos;
}

// NVIDIA's recipes: NeMo's launcher configs behind the DGX Cloud benchmarks and
// Megatron-Bridge's performance configs.
bool fromNvidiaRecipe(const PublishedRun& run)
{
    return run.source.find("Megatron-Bridge") != std::string::npos || run.source.find("DGX Cloud") != std::string::npos;
}

// They overlap sequence parallelism's gathers and scatters with the GEMMs beside them
// (NeMo's ub_tp_comm_overlap: true; Megatron-Bridge's tp_comm_overlap, which it turns off
// below tp 2 or without sequence parallelism).
bool overlapsTensorParallelism(const PublishedRun& run)
{
    return fromNvidiaRecipe(run) && run.training.tensorParallel > 1 && run.training.sequenceParallel;
}

// And a stage's sends with its compute under the interleaved schedule (Megatron-Bridge:
// overlap_p2p_comm whenever pp > 1 and vp > 1; NeMo's launcher configs: overlap_p2p_comm: true).
bool overlapsPipelineSends(const PublishedRun& run)
{
    return fromNvidiaRecipe(run) && run.training.pipelineParallel > 1 && run.training.virtualStages > 1;
}

bool fromLlmFoundry(const PublishedRun& run)
{
    return run.source.find("llm-foundry") != std::string::npos;
}

// Stacks that wrap blocks in PyTorch's non-reentrant checkpoint: Composer's FSDP under
// llm-foundry (activation_checkpointing_reentrant: false) and torchtitan.
bool checkpointsWithPyTorch(const PublishedRun& run)
{
    return fromTorchTitan(run) || fromLlmFoundry(run);
}

}  // namespace

AttentionKernel attentionKernelOf(const PublishedRun& run)
{
    return attentionKernelFromName(run.model.attention, AttentionNameReader::RunFile).value_or(AttentionKernel::Unfused);
}

std::string clusterPresetForGpu(const std::string& gpu)
{
    if (gpu == "A100-SXM4-80GB")
        return "dgx-a100x1";
    if (gpu == "A100-SXM4-40GB")
        return "dgx-a100-40gbx1";
    if (gpu == "H100-SXM5-80GB")
        return "dgx-h100x1";
    if (gpu == "H200-SXM5-141GB")
        return "dgx-h200x1";
    if (gpu == "B200-SXM-180GB")
        return "dgx-b200x1";
    if (gpu == "GB200-NVL72")
        return "gb200-nvl72x1";
    return {};
}

RunPrediction predictRun(const PublishedRun& run, const std::filesystem::path& clusterPresets)
{
    RunPrediction prediction;
    prediction.skipped = planSpaceGap(run);
    if (!prediction.skipped.empty())
        return prediction;
    const std::string preset = clusterPresetForGpu(run.hardware.gpu);
    if (preset.empty()) {
        prediction.skipped = "no cluster preset for GPU " + run.hardware.gpu;
        return prediction;
    }
    Cluster cluster = loadClusterPreset(clusterPresets, preset);
    // The run's peak scales every precision's rate alike (FP8 is twice the 16-bit rate on all of them).
    cluster.gpu.fp8.peakFlopsPerSecond *= run.hardware.peakTflops * 1e12 / cluster.gpu.peakFlopsPerSecond;
    cluster.gpu.peakFlopsPerSecond = run.hardware.peakTflops * 1e12;
    cluster.interNode.bytesPerSecond = run.hardware.interNodeGbitPerGpu * 1e9 / 8 * kNicShare;
    if (run.hardware.gpusPerNvlinkDomain > 0)
        cluster.gpusPerNvlinkDomain = run.hardware.gpusPerNvlinkDomain;
    return PreparedRun(run).price(cluster);
}

PreparedRun::PreparedRun(const PublishedRun& run) : run_(run), skipped_(planSpaceGap(run))
{
    if (!skipped_.empty())
        return;
    ModelSpec spec;
    spec.family = run.model.architecture == "llama" ? ModelFamily::Llama : ModelFamily::Gpt;
    spec.layers = run.model.layers;
    spec.hidden = run.model.hidden;
    spec.heads = run.model.heads;
    spec.kvHeads = run.model.kvHeads;
    spec.ffn = run.model.ffnHidden;
    spec.vocab = run.model.vocab;
    // Learned positions as GPT-3 has them. llm-foundry's MPT keeps one row per token of
    // its max_seq_len (learned_pos_emb, set to the run's sequence by its benchmark sweep):
    // the source's parameter counts grow by exactly (sequence - 2048) x hidden from the
    // 2048-token runs. Llama's rotary positions have no table: its length only bounds the
    // sequence.
    if (spec.family == ModelFamily::Llama)
        spec.maxPositions = std::max<std::int64_t>(2048, run.model.sequence);
    else
        spec.maxPositions = fromLlmFoundry(run) ? run.model.sequence : 2048;
    spec.dropout = fromMegatron(run);
    model_ = std::make_unique<const FoldedModel>(foldModel(synthesizeModel(spec, run.name)));
}

PreparedRun::PreparedRun(PreparedRun&&) noexcept = default;
PreparedRun& PreparedRun::operator=(PreparedRun&&) noexcept = default;
PreparedRun::~PreparedRun() = default;

RunPrediction PreparedRun::price(const Cluster& givenCluster) const
{
    RunPrediction prediction;
    prediction.skipped = skipped_;
    if (!prediction.skipped.empty())
        return prediction;
    const PublishedRun& run = run_;
    const PublishedRun::Training& t = run.training;
    if (run.hardware.gpusPerNode != givenCluster.gpusPerNode) {
        prediction.skipped = std::to_string(run.hardware.gpusPerNode) + " GPUs per node; the cluster " +
                             givenCluster.name + " has " + std::to_string(givenCluster.gpusPerNode);
        return prediction;
    }
    // The run's own GPUs where the file says they differ from the preset's.
    Cluster onItsHardware = givenCluster.withNodes(run.hardware.nodes);
    if (run.hardware.hbmTbPerSecond > 0)
        onItsHardware.gpu.hbmBytesPerSecond = run.hardware.hbmTbPerSecond * 1e12;
    PipelineStages stages;
    try {
        stages = pipelineStages(onItsHardware, t.pipelineParallel);
    } catch (const Error& error) {
        prediction.skipped = error.message();
        return prediction;
    }
    const Cluster& cluster = stages.stageCluster;
    const CoarseGraph& coarse = model_->coarse;

    Workload workload;
    workload.batch = t.globalBatch;
    workload.sequence = run.model.sequence;
    workload.microBatch = t.microBatch;
    (void)setPrecision(workload, t.precision);  // the reader accepted only names it knows
    workload.fp8Parameters = t.fp8Parameters;
    workload.zeroStage = t.zeroStage;
    workload.zeroImplementation = zeroImplementationFromName(t.zeroImplementation).value_or(ZeroImplementation::Fsdp);
    workload.recompute = recomputationFromName(t.recompute).value_or(Recomputation::None);
    // torchtitan as it implements each technique: its op-level selective recomputation,
    // PyTorch's non-reentrant checkpoint, FSDP2 (fully_shard) where the file says FSDP.
    if (fromTorchTitan(run) && workload.zeroImplementation == ZeroImplementation::Fsdp)
        workload = withStackImplementations(workload, TrainingStack::TorchTitan);
    else if (fromTorchTitan(run))
        workload.selective = stackSelectiveRecomputation(TrainingStack::TorchTitan);
    if (fromTorchTitan(run))
        workload.fp8Implementation = stackFp8Implementation(TrainingStack::TorchTitan, workload.fp8);
    if (checkpointsWithPyTorch(run))
        workload.checkpointReplay = CheckpointReplay::StopsEarly;
    workload.tensorParallelOverlap = overlapsTensorParallelism(run);
    workload.pipelineSendOverlap = overlapsPipelineSends(run);
    workload.attention = attentionKernelOf(run);
    // Megatron-Core (Megatron-LM, NeMo, Megatron-Bridge) gives Transformer Engine's attention
    // grouped-query keys and values with their own heads whatever the backend; torchtitan
    // repeats them first (Workload::keyValueHeads). Its optimizer runs as Megatron-LM's
    // default (none of these sources turns on --use-precision-aware-optimizer: NeMo's and
    // Megatron-Bridge's distributed_fused_adam_with_cosine_annealing leave it off): FusedAdam
    // on the fp32 main parameters, copied back into the weights, and every step zeroes the
    // gradient buffer (stackOptimizerStep, stackGradientLifetime). Both stacks clip the
    // gradients by their norm as they do (stackGradientClipping: Megatron-LM's --clip-grad, the
    // norm read and the gradients scaled above it; torchtitan's max_norm, scaled every step;
    // 1.0 by default, and NeMo's and Megatron-Bridge's recipes clip at 1.0).
    if (fromMegatron(run) || fromNvidiaRecipe(run)) {
        workload.keyValueHeads = KeyValueHeads::Grouped;
        workload.optimizerStep = stackOptimizerStep(TrainingStack::Megatron);
        workload.gradientLifetime = stackGradientLifetime(TrainingStack::Megatron);
        workload.gradientClipping = stackGradientClipping(TrainingStack::Megatron);
    } else if (fromTorchTitan(run)) {
        workload.keyValueHeads = KeyValueHeads::Repeated;
        workload.gradientClipping = stackGradientClipping(TrainingStack::TorchTitan);
    }
    // Megatron-Core's gradient buffers (the "main gradients") in fp32 as the run's file says
    // (training.grad_reduce_in_fp32), in the parameters' 16 bits otherwise.
    workload.fp32MainGradients = run.training.gradReduceInFp32;
    if (fromMegatron(run) && !workload.fp32MainGradients)
        workload.gradientReduceType = workload.computeType;  // reduced as kept
    // The layout Megatron-LM runs: tensor parallel innermost, then context parallel (ring
    // attention, its default --cp-comm-type p2p), then data parallel.
    TrainingStackSettings settings;
    settings.tensorParallel = t.tensorParallel;
    settings.dataParallel = t.dataParallel;
    settings.sequenceParallel = t.sequenceParallel;
    settings.contextParallel = t.contextParallel;
    settings.contextVariant = t.contextParallel > 1 ? ContextParallelVariant::Ring : ContextParallelVariant::None;
    settings.pipeline.stages = t.pipelineParallel;
    settings.pipeline.virtualStages = t.virtualStages;
    settings.pipeline.schedule = t.virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    settings.workload = workload;
    Plan plan;
    try {
        plan = planFromTrainingStackSettings(settings, *model_, run.name, 0).plan;
    } catch (const Error& error) {
        prediction.skipped = error.message();
        return prediction;
    }
    const DeviceMesh mesh(plan.mesh, cluster);
    const CostModel costs(*model_, cluster, mesh, workload, PipelineSetting{settings.pipeline, stages.boundaryLink});
    for (const CoarseNode& node : coarse.nodes)
        prediction.parameters += costs.facts(node.id).parameterElements;
    const PlanEvaluation evaluation = costs.evaluate(plan);
    prediction.microSteps = evaluation.microBatches;
    const MemoryBreakdown& memory = evaluation.total.memory;
    prediction.stepSeconds = evaluation.total.time.stepSeconds();
    prediction.memoryBytes = memory.total();
    prediction.deviceMemoryBytes = static_cast<double>(cluster.gpu.hbmBytes);
    prediction.parameterAndOptimizerBytes = memory.parameters + memory.gradients + memory.optimizerStates;
    // The first stage keeps the most micro-batches in flight.
    prediction.activationBytes =
        evaluation.stages.empty() ? memory.activations : evaluation.stages.front().cost.memory.activations;
    return prediction;
}

double relativeError(double predicted, double measured)
{
    return predicted / measured - 1.0;
}

ValidationSummary summarizeErrors(std::vector<double> absoluteErrors, std::size_t skipped)
{
    ValidationSummary summary;
    summary.skipped = skipped;
    summary.priced = absoluteErrors.size();
    if (absoluteErrors.empty())
        return summary;
    std::sort(absoluteErrors.begin(), absoluteErrors.end());
    const std::size_t n = absoluteErrors.size();
    summary.medianAbsoluteError = n % 2 ? absoluteErrors[n / 2] : (absoluteErrors[n / 2 - 1] + absoluteErrors[n / 2]) / 2;
    summary.maximumAbsoluteError = absoluteErrors.back();
    return summary;
}

}  // namespace tapestry
