#include "cost/Workload.h"

#include <cmath>
#include <cstdio>

namespace tapestry {

const char* optimizerName(OptimizerKind kind)
{
    return kind == OptimizerKind::AdamMixedPrecision ? "adam" : "sgd";
}

int optimizerStateBytesPerParameter(OptimizerKind kind)
{
    return kind == OptimizerKind::AdamMixedPrecision ? 12 : 8;
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
    for (const Recomputation r : {Recomputation::None, Recomputation::Selective, Recomputation::Full}) {
        if (name == recomputationName(r))
            return r;
    }
    return std::nullopt;
}

const char* attentionKernelName(AttentionKernel kernel)
{
    return kernel == AttentionKernel::Fused ? "fused" : "unfused";
}

std::optional<AttentionKernel> attentionKernelFromName(std::string_view name)
{
    if (name == "fused" || name == "flash")
        return AttentionKernel::Fused;
    if (name == "unfused")
        return AttentionKernel::Unfused;
    return std::nullopt;
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
