#include "cost/Workload.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace tapestry {

namespace {

// The value whose name (by nameOf) is `name`, among every value of the enum.
template <typename Enum>
std::optional<Enum> fromName(std::string_view name, std::initializer_list<Enum> values, const char* (*nameOf)(Enum))
{
    for (const Enum value : values) {
        if (name == nameOf(value))
            return value;
    }
    return std::nullopt;
}

}  // namespace

const char* optimizerName(OptimizerKind kind)
{
    return kind == OptimizerKind::AdamMixedPrecision ? "adam" : "sgd";
}

const char* optimizerStepName(OptimizerStep step)
{
    switch (step) {
    case OptimizerStep::Fused: return "fused";
    case OptimizerStep::MasterCopies: return "master-copies";
    case OptimizerStep::FusedRemainders: return "fused-remainders";
    }
    return "fused";
}

std::optional<OptimizerStep> optimizerStepFromName(std::string_view name)
{
    return fromName<OptimizerStep>(name,
                                   {OptimizerStep::Fused, OptimizerStep::MasterCopies, OptimizerStep::FusedRemainders},
                                   optimizerStepName);
}

int optimizerStateBytesPerParameter(OptimizerKind kind, OptimizerStep step)
{
    const int states = kind == OptimizerKind::AdamMixedPrecision ? 12 : 8;
    return step == OptimizerStep::FusedRemainders ? states - 2 : states;
}

double optimizerStepBytesPerParameter(OptimizerKind kind, OptimizerStep step, double gradientBytes, double weightBytes)
{
    const double states = optimizerStateBytesPerParameter(kind, step);  // each read and written once
    if (step == OptimizerStep::Fused)
        return 2 * states + gradientBytes + weightBytes;
    if (step == OptimizerStep::FusedRemainders)
        return 2 * states + gradientBytes + 2 * weightBytes;
    const double castGradient = gradientBytes < 4 ? gradientBytes + 4 : 0.0;  // fp32 gradients are read as held
    return castGradient + (2 * states + 4) + (4 + weightBytes);
}

const char* recomputationName(Recomputation recompute)
{
    switch (recompute) {
    case Recomputation::None: return "none";
    case Recomputation::Selective: return "selective";
    case Recomputation::Full: return "full";
    }
    return "none";
}

std::optional<Recomputation> recomputationFromName(std::string_view name)
{
    return fromName<Recomputation>(name,
                                   {Recomputation::None, Recomputation::Selective, Recomputation::Full},
                                   recomputationName);
}

const char* checkpointReplayName(CheckpointReplay replay)
{
    return replay == CheckpointReplay::StopsEarly ? "stops-early" : "whole-block";
}

std::optional<CheckpointReplay> checkpointReplayFromName(std::string_view name)
{
    return fromName<CheckpointReplay>(name,
                                      {CheckpointReplay::WholeBlock, CheckpointReplay::StopsEarly},
                                      checkpointReplayName);
}

const char* fp8ImplementationName(Fp8Implementation implementation)
{
    switch (implementation) {
    case Fp8Implementation::TransformerEngine: return "transformer-engine";
    case Fp8Implementation::Torchao: return "torchao";
    case Fp8Implementation::TorchaoFloat8TensorParallel: return "torchao-float8-tp";
    }
    return "transformer-engine";
}

std::optional<Fp8Implementation> fp8ImplementationFromName(std::string_view name)
{
    return fromName<Fp8Implementation>(name,
                                       {Fp8Implementation::TransformerEngine, Fp8Implementation::Torchao,
                                        Fp8Implementation::TorchaoFloat8TensorParallel},
                                       fp8ImplementationName);
}

const char* savedActivationsName(SavedActivations saved)
{
    return saved == SavedActivations::Eager ? "eager" : "fused";
}

std::optional<SavedActivations> savedActivationsFromName(std::string_view name)
{
    return fromName<SavedActivations>(name, {SavedActivations::Fused, SavedActivations::Eager}, savedActivationsName);
}

const char* gradientLifetimeName(GradientLifetime lifetime)
{
    switch (lifetime) {
    case GradientLifetime::Persistent: break;
    case GradientLifetime::FreedBetweenSteps: return "freed-between-steps";
    case GradientLifetime::ZeroedEachStep: return "zeroed-each-step";
    }
    return "persistent";
}

std::optional<GradientLifetime> gradientLifetimeFromName(std::string_view name)
{
    return fromName<GradientLifetime>(name,
                                      {GradientLifetime::Persistent, GradientLifetime::FreedBetweenSteps,
                                       GradientLifetime::ZeroedEachStep},
                                      gradientLifetimeName);
}

const char* gradientClippingName(GradientClipping clipping)
{
    switch (clipping) {
    case GradientClipping::None: break;
    case GradientClipping::AboveLimit: return "above-limit";
    case GradientClipping::EveryStep: return "every-step";
    }
    return "none";
}

std::optional<GradientClipping> gradientClippingFromName(std::string_view name)
{
    return fromName<GradientClipping>(
        name, {GradientClipping::None, GradientClipping::AboveLimit, GradientClipping::EveryStep},
        gradientClippingName);
}

const char* keyValueHeadsName(KeyValueHeads heads)
{
    switch (heads) {
    case KeyValueHeads::Grouped: return "grouped";
    case KeyValueHeads::Repeated: return "repeated";
    case KeyValueHeads::AsKernel: break;
    }
    return "as-kernel";
}

std::optional<KeyValueHeads> keyValueHeadsFromName(std::string_view name)
{
    return fromName<KeyValueHeads>(name,
                                   {KeyValueHeads::AsKernel, KeyValueHeads::Grouped, KeyValueHeads::Repeated},
                                   keyValueHeadsName);
}

bool keepsGroupedKeyValues(const Workload& workload)
{
    switch (workload.keyValueHeads) {
    case KeyValueHeads::Grouped: return true;
    case KeyValueHeads::Repeated: return false;
    case KeyValueHeads::AsKernel: break;
    }
    // Eager PyTorch hands any kernel what the graph's repeat made (SDPA's cuDNN backend too).
    return workload.attention == AttentionKernel::Cudnn && workload.savedActivations != SavedActivations::Eager;
}

const char* selectiveRecomputationName(SelectiveRecomputation selective)
{
    return selective == SelectiveRecomputation::EveryOtherMatmul ? "every-other-matmul" : "attention-core";
}

std::optional<SelectiveRecomputation> selectiveRecomputationFromName(std::string_view name)
{
    return fromName<SelectiveRecomputation>(
        name, {SelectiveRecomputation::AttentionCore, SelectiveRecomputation::EveryOtherMatmul},
        selectiveRecomputationName);
}

int effectiveZeroStage(int zeroStage, int shardRanks)
{
    return shardRanks > 1 ? zeroStage : 0;
}

const char* zeroImplementationName(ZeroImplementation implementation)
{
    switch (implementation) {
    case ZeroImplementation::Fsdp: return "fsdp";
    case ZeroImplementation::Fsdp2: return "fsdp2";
    case ZeroImplementation::DeepSpeed: return "deepspeed";
    case ZeroImplementation::MegatronFsdp: return "megatron-fsdp";
    }
    return "fsdp";
}

std::optional<ZeroImplementation> zeroImplementationFromName(std::string_view name)
{
    return fromName<ZeroImplementation>(name,
                                        {ZeroImplementation::Fsdp, ZeroImplementation::Fsdp2,
                                         ZeroImplementation::DeepSpeed, ZeroImplementation::MegatronFsdp},
                                        zeroImplementationName);
}

bool isFusedAttention(AttentionKernel kernel)
{
    return kernel != AttentionKernel::Unfused;
}

const char* fp8RecipeName(Fp8Recipe recipe)
{
    switch (recipe) {
    case Fp8Recipe::None: return "none";
    case Fp8Recipe::PerTensor: return "per-tensor";
    case Fp8Recipe::Block: return "mxfp8";
    }
    return "none";
}

std::optional<Fp8Recipe> fp8RecipeFromName(std::string_view name)
{
    return fromName<Fp8Recipe>(name, {Fp8Recipe::None, Fp8Recipe::PerTensor, Fp8Recipe::Block}, fp8RecipeName);
}

std::string precisionName(const Workload& workload)
{
    switch (workload.fp8) {
    case Fp8Recipe::PerTensor: return "fp8";
    case Fp8Recipe::Block: return "mxfp8";
    case Fp8Recipe::None: break;
    }
    switch (workload.computeType) {
    case DataType::Float16: return "fp16";
    case DataType::Float32: return "fp32";
    default: return "bf16";
    }
}

bool setPrecision(Workload& workload, std::string_view name)
{
    if (name == "bf16" || name == "fp8" || name == "mxfp8")
        workload.computeType = DataType::BFloat16;
    else if (name == "fp16")
        workload.computeType = DataType::Float16;
    else if (name == "fp32")
        workload.computeType = DataType::Float32;
    else
        return false;
    workload.fp8 = name == "fp8" ? Fp8Recipe::PerTensor : name == "mxfp8" ? Fp8Recipe::Block : Fp8Recipe::None;
    return true;
}

bool isCapacityFactor(double factor)
{
    return std::isfinite(factor) && factor > 0 && factor <= kMaxCapacityFactor;
}

std::string capacityFactorText(double factor)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", factor);
    return text;
}

}  // namespace tapestry
