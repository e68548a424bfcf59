#include "cli/Formatting.h"

#include "cost/AttentionKernelNames.h"
#include "cost/CostModel.h"
#include "cost/Throughput.h"

#include <cstdio>

namespace tapestry::cli {

namespace {

std::string scaled(double value, const char* const* units, int unitCount)
{
    int unit = 0;
    while (value >= 1000.0 && unit + 1 < unitCount) {
        value /= 1000.0;
        ++unit;
    }
    char buffer[32];
    if (unit == 0)
        std::snprintf(buffer, sizeof buffer, "%.0f%s", value, units[0]);
    else
        std::snprintf(buffer, sizeof buffer, value < 100.0 ? "%.2f %s" : "%.1f %s", value, units[unit]);
    return buffer;
}

}  // namespace

std::string humanCount(std::uint64_t count)
{
    static const char* const units[] = {"", "K", "M", "B", "T"};
    return scaled(static_cast<double>(count), units, 5);
}

std::string humanBytes(std::uint64_t bytes)
{
    static const char* const units[] = {" B", "kB", "MB", "GB", "TB"};
    return scaled(static_cast<double>(bytes), units, 5);
}

std::string describeWorkload(const CostModel& costs, const Plan& plan)
{
    const ShapeBinder& shapes = costs.shapes();
    const Workload& w = costs.workload();
    std::string text = "batch " + std::to_string(shapes.batch()) + " x sequence " + std::to_string(shapes.sequence());
    const bool defaulted =
        shapes.batchSource() == ShapeBinder::Source::Default || shapes.sequenceSource() == ShapeBinder::Source::Default;
    if (defaulted && shapes.modelSequence() > 0)
        text += " (default: the model's inputs are the exporter's trace-time " + std::to_string(shapes.modelBatch()) +
                " x " + std::to_string(shapes.modelSequence()) + "; set --batch and --seq)";
    else if (defaulted)
        text += " (default: the model does not fix them; set --batch and --seq)";
    if (w.microBatch > 0) {
        const CostModel::Stepping steps = costs.steppingOf(plan);
        text += ", micro-batch " + std::to_string(w.microBatch) + " per data-parallel rank (" +
                std::to_string(steps.microSteps) + " micro-steps of " + std::to_string(steps.dataParallel) + " ranks)";
    }
    text += ", " + precisionName(w);
    if (w.fp8 != Fp8Recipe::None && w.fp8Implementation != Fp8Implementation::TransformerEngine)
        text += " (" + std::string(fp8ImplementationName(w.fp8Implementation)) + ")";
    if (w.fp8Parameters)
        text += " (FP8 weights without a 16-bit copy)";
    text += ", " + std::string(optimizerName(w.optimizer));
    if (w.zeroStage > 0)
        text += ", ZeRO-" + std::to_string(w.zeroStage);
    if (w.zeroStage >= 2 && w.zeroImplementation != ZeroImplementation::Fsdp)
        text += " (" + std::string(zeroImplementationName(w.zeroImplementation)) + ")";
    if (w.zeroStage >= 2 && w.zeroReplicas > 1)
        text += ", HSDP " + std::to_string(w.zeroReplicas) + " replicas";
    text += ", recompute " + std::string(recomputationName(w.recompute));
    if (w.recompute == Recomputation::Selective && w.selective != SelectiveRecomputation::AttentionCore)
        text += " (" + std::string(selectiveRecomputationName(w.selective)) + ")";
    if (w.recompute == Recomputation::Full && w.checkpointReplay != CheckpointReplay::WholeBlock)
        text += " (" + std::string(checkpointReplayName(w.checkpointReplay)) + ")";
    if (w.savedActivations != SavedActivations::Fused)
        text += ", " + std::string(savedActivationsName(w.savedActivations)) + " saved activations and kernels";
    if (w.optimizerStep != OptimizerStep::Fused)
        text += ", optimizer step on " + std::string(optimizerStepName(w.optimizerStep));
    if (w.gradientLifetime != GradientLifetime::Persistent)
        text += ", gradients " + std::string(gradientLifetimeName(w.gradientLifetime));
    if (w.gradientClipping == GradientClipping::AboveLimit)
        text += ", gradients clipped by norm above the limit";
    else if (w.gradientClipping == GradientClipping::EveryStep)
        text += ", gradients clipped by norm every step";
    text += w.overlap ? ", overlap on" : ", overlap off";
    text += ", " + std::string(attentionKernelName(w.attention)) + " attention";
    if (w.capacityFactor != 1.0)
        text += ", capacity factor " + capacityFactorText(w.capacityFactor);
    return text;
}

std::string describeThroughput(const CostModel& costs, const CoarseGraph& coarse, double peakFlopsPerSecond,
                               double stepSeconds)
{
    const Throughput throughput = throughputOf(costs, coarse, peakFlopsPerSecond, stepSeconds);
    char text[120];
    std::snprintf(text, sizeof text, "%.0f tokens/s per GPU, MFU %.1f %%", throughput.tokensPerSecondPerGpu,
                  throughput.modelFlopsUtilization * 100);
    return text;
}

std::string runnableStacksText(const std::vector<TrainingStack>& stacks)
{
    if (stacks.empty())
        return "not runnable as is on any training stack";
    std::string text = "runs as is on ";
    for (std::size_t i = 0; i < stacks.size(); ++i)
        text += std::string(i > 0 ? ", " : "") + trainingStackName(stacks[i]);
    return text;
}

}  // namespace tapestry::cli
