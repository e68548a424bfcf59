#pragma once

#include "plan/Plan.h"

#include <cstddef>
#include <cstdint>
#include <vector>

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
// The same with the strategies of `nodes` only read: for a plan whose other nodes repeat
// theirs (its caller knows, as validatePlan's).
[[nodiscard]] ContextParallelVariant contextParallelVariant(const Plan& plan, const CoarseGraph& coarse,
                                                            std::size_t axis, const std::vector<CoarseNodeId>& nodes);
// The product of the axes with a context-parallel variant (1 without): what torchtitan
// calls context_parallel_degree and Megatron-LM --context-parallel-size.
[[nodiscard]] int contextParallelDegree(const Plan& plan, const CoarseGraph& coarse);
// The product of the axes over which some node spreads experts (1 without): torchtitan's
// expert parallel degree, Megatron-LM's --expert-model-parallel-size.
[[nodiscard]] int expertParallelDegree(const Plan& plan);

// The GPUs one tensor-, context- or expert-parallel group of a node with `strategy` spans
// on a mesh of `axisSizes`: the product of the axes on which it splits anything but the
// batch (1: data parallel or replicated only).
[[nodiscard]] int groupWidth(const NodeStrategy& strategy, const std::vector<int>& axisSizes);
// The widest such group of any node of the plan, on one pipeline stage's mesh.
[[nodiscard]] int widestGroup(const Plan& plan);

// The parallelism techniques a search can be asked to do without, to tell what each is
// worth to the plan it found (SearchOptions::withheld).
enum class ParallelTechnique : std::uint8_t { Context, Expert };

// "context parallelism", "expert parallelism"
[[nodiscard]] const char* parallelTechniqueName(ParallelTechnique technique);
// The degree a plan uses the technique with (1: not used).
[[nodiscard]] int parallelDegree(const Plan& plan, const CoarseGraph& coarse, ParallelTechnique technique);
// Whether a node may take `strategy` without the technique: no expert split without
// expert parallelism; no anchor (linear, embedding, attention) split on the sequence
// without context parallelism (normalizations and elementwise nodes still may, as
// Megatron-LM's sequence parallelism does).
[[nodiscard]] bool usesTechnique(CoarseNodeKind kind, const NodeStrategy& strategy, ParallelTechnique technique);

}  // namespace tapestry
