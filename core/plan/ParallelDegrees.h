#pragma once

#include "plan/Plan.h"

#include <cstddef>
#include <cstdint>

namespace tapestry {

// How a plan runs attention along one mesh axis (training.md, "Context parallelism").
enum class ContextParallelVariant : std::uint8_t {
    None,
    Ring,     // an attention core splits the sequence: keys and values pass around the axis
    Ulysses,  // attention splits heads between linear layers that split the sequence
};

[[nodiscard]] const char* contextParallelVariantName(ContextParallelVariant variant);
[[nodiscard]] ContextParallelVariant contextParallelVariant(const Plan& plan, const CoarseGraph& coarse,
                                                            std::size_t axis);
// The product of the axes with a context-parallel variant (1 without): what torchtitan
// calls context_parallel_degree and Megatron-LM --context-parallel-size.
[[nodiscard]] int contextParallelDegree(const Plan& plan, const CoarseGraph& coarse);
// The product of the axes over which some node spreads experts (1 without): torchtitan's
// expert parallel degree, Megatron-LM's --expert-model-parallel-size.
[[nodiscard]] int expertParallelDegree(const Plan& plan);

}  // namespace tapestry
