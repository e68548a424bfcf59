#pragma once

#include "cluster/Cluster.h"
#include "cost/Workload.h"
#include "validation/PublishedRun.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// What the cost model predicts for a published run (tapestry-cli validate). The run's
// model is synthesized from its architecture, its cluster built from the GPU's preset
// (resources/clusters) with the run's node count and inter-node bandwidth, its
// configuration turned into the plan Megatron-LM runs for it (planFromTrainingStackSettings:
// tensor parallelism on a [dp, tp] mesh, sequence parallelism when it says so, context
// parallelism as ring attention on an axis "cp" between them; with pipeline parallelism,
// that mesh is one stage's and the stages run 1F1B, interleaved when the run has
// virtual stages, cost/PipelineCost.h) and its workload (global
// and micro-batch, precision, ZeRO stage, recomputation, attention kernel; overlap on).
// The software stack is read from the source: Megatron-LM runs keep fp32 main
// gradients and train GPT with dropout 0.1, as Megatron-LM's GPT recipe does;
// torchtitan runs recompute selectively by torchtitan's op-level policy; llm-foundry and
// torchtitan runs replay checkpointed blocks as PyTorch's non-reentrant checkpoint does
// (CheckpointReplay::StopsEarly). The attention kernel is what the run's model.attention
// names, never read from the source (attentionKernelOf).
// The same model prices every run: nothing here depends on which run it is.
struct RunPrediction {
    std::string skipped;  // why the run cannot be priced yet; empty when it was
    double stepSeconds = 0;
    double memoryBytes = 0;                 // peak per device
    // What the cluster plans with per GPU (gpu.hbmBytes: the presets keep it under the card's
    // own, for the CUDA context and NCCL's buffers); a peak above it cannot run as priced.
    double deviceMemoryBytes = 0;
    double parameterAndOptimizerBytes = 0;  // parameters, gradients and optimizer states per device
    double activationBytes = 0;             // saved activations per device
    double parameters = 0;                  // of the synthesized model
    int microSteps = 1;
};

// The attention kernel a run is priced with: its model.attention as the run format reads
// it (cost/AttentionKernelNames.h: "flash" is FlashAttention 1.x, "flash2" FlashAttention-2).
[[nodiscard]] AttentionKernel attentionKernelOf(const PublishedRun& run);

// The cluster preset a run's hardware.gpu is priced on ("dgx-h100x1" for
// "H100-SXM5-80GB"); empty for a GPU without one. The presets' notes give their figures'
// sources.
[[nodiscard]] std::string clusterPresetForGpu(const std::string& gpu);

[[nodiscard]] RunPrediction predictRun(const PublishedRun& run, const std::filesystem::path& clusterPresets);

// A published run made ready to be priced on any cluster of its node shape: its model
// synthesized and folded once, then priced by predictRun's rules on each cluster asked
// (what calibration does many times over, with the cluster's figures changed).
class PreparedRun {
public:
    // Throws what synthesis throws; a run the plan space cannot express is kept as skipped.
    explicit PreparedRun(const PublishedRun& run);
    PreparedRun(PreparedRun&&) noexcept;
    PreparedRun& operator=(PreparedRun&&) noexcept;
    ~PreparedRun();

    [[nodiscard]] const PublishedRun& run() const { return run_; }
    // Why no cluster can price the run; empty when it can be priced.
    [[nodiscard]] const std::string& skipped() const { return skipped_; }
    // The run on `cluster` repeated to the run's node count, exactly as the cluster says:
    // nothing of the run's `hardware` but its node count is read here.
    [[nodiscard]] RunPrediction price(const Cluster& cluster) const;

private:
    PublishedRun run_;
    std::string skipped_;
    std::unique_ptr<const FoldedModel> model_;
};

// Relative error predicted / measured - 1.
[[nodiscard]] double relativeError(double predicted, double measured);

struct ValidationSummary {
    std::size_t priced = 0;
    std::size_t skipped = 0;
    double medianAbsoluteError = 0;  // of the step time, over the priced runs
    double maximumAbsoluteError = 0;
};
// From the priced runs' |relative step-time errors| and the count of skipped runs.
[[nodiscard]] ValidationSummary summarizeErrors(std::vector<double> absoluteErrors, std::size_t skipped);

}  // namespace tapestry
