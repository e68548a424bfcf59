#include "validation/ErrorRegimes.h"

#include "validation/RunValidation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tapestry {

namespace {

const char* const kDimensions[] = {"gpu", "sequence", "gpus", "technique", "attention", "recompute"};
// The bands of the banded dimensions, in the order they are listed.
const std::vector<std::string> kSequenceBands{"<= 2048", "2049-8192", "> 8192"};
const std::vector<std::string> kGpuBands{"<= 8", "9-64", "65-512", "> 512"};

// Where a regime is listed within its dimension: bands in their order, other regimes in
// the order of their first case (`firstSeen`).
std::size_t listingRank(const std::string& dimension, const std::string& regime, std::size_t firstSeen)
{
    const std::vector<std::string>* bands = dimension == "sequence" ? &kSequenceBands
                                            : dimension == "gpus"   ? &kGpuBands
                                                                    : nullptr;
    if (!bands)
        return firstSeen;
    return static_cast<std::size_t>(std::find(bands->begin(), bands->end(), regime) - bands->begin());
}

std::string sequenceBand(std::int64_t sequence)
{
    return kSequenceBands[sequence <= 2048 ? 0 : sequence <= 8192 ? 1 : 2];
}

std::string gpuBand(std::int64_t gpus)
{
    return kGpuBands[gpus <= 8 ? 0 : gpus <= 64 ? 1 : gpus <= 512 ? 2 : 3];
}

// The technique that shapes the run most: a pipeline over tensor parallelism over the
// ZeRO stage's data parallelism.
std::string techniqueOf(const PublishedRun::Training& t)
{
    if (t.contextParallel > 1)
        return "context parallel";
    if (t.pipelineParallel > 1)
        return "pipeline";
    if (t.tensorParallel > 1)
        return "tensor parallel";
    if (t.zeroStage >= 3)
        return t.zeroImplementation == "deepspeed" ? "DeepSpeed ZeRO-3" : "FSDP / ZeRO-3";
    if (t.zeroStage == 2)
        return "ZeRO-2";
    return "data parallel";
}

// The attention kernel a run is priced with, as people name it.
std::string attentionOf(const PublishedRun& run)
{
    switch (attentionKernelOf(run)) {
    case AttentionKernel::FlashAttention2: return "FlashAttention-2";
    case AttentionKernel::Cudnn: return "cuDNN";
    case AttentionKernel::Triton: return "Triton FlashAttention";
    case AttentionKernel::FlashAttention1: return "FlashAttention";
    case AttentionKernel::Unfused: break;
    }
    return "unfused";
}

}  // namespace

std::vector<RunRegime> regimesOf(const PublishedRun& run)
{
    const std::int64_t gpus = static_cast<std::int64_t>(run.hardware.nodes) * run.hardware.gpusPerNode;
    return {{kDimensions[0], run.hardware.gpu},
            {kDimensions[1], sequenceBand(run.model.sequence)},
            {kDimensions[2], gpuBand(gpus)},
            {kDimensions[3], techniqueOf(run.training)},
            {kDimensions[4], attentionOf(run)},
            {kDimensions[5], run.training.recompute}};
}

void ErrorRegimes::add(const PublishedRun& run, double signedError)
{
    for (RunRegime& r : regimesOf(run)) {
        auto key = std::make_pair(std::move(r.dimension), std::move(r.regime));
        auto& errors = errors_[key];
        if (errors.empty())
            order_.push_back(key);
        errors.push_back(signedError);
    }
}

std::vector<RegimeError> ErrorRegimes::summary() const
{
    std::vector<RegimeError> out;
    for (const char* dimension : kDimensions) {
        std::vector<std::pair<std::size_t, std::pair<std::string, std::string>>> listed;
        for (std::size_t i = 0; i < order_.size(); ++i) {
            if (order_[i].first == dimension)
                listed.emplace_back(listingRank(order_[i].first, order_[i].second, i), order_[i]);
        }
        std::sort(listed.begin(), listed.end());
        for (const auto& [rank, key] : listed) {
            const std::vector<double>& signedErrors = errors_.at(key);
            std::vector<double> absolute;
            for (const double e : signedErrors)
                absolute.push_back(std::abs(e));
            const ValidationSummary s = summarizeErrors(absolute, 0);
            out.push_back({key.first, key.second, signedErrors.size(), s.medianAbsoluteError, s.maximumAbsoluteError,
                           std::accumulate(signedErrors.begin(), signedErrors.end(), 0.0) /
                               static_cast<double>(signedErrors.size())});
        }
    }
    return out;
}

}  // namespace tapestry
