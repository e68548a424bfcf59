#pragma once

#include "plan/Plan.h"

#include <optional>
#include <string_view>

namespace tapestry {

enum class ExpertPlanKind : std::uint8_t {
    DataParallel,              // every node splits the batch on every axis
    Megatron,                  // tensor parallel on the last axis, data parallel on the others
    MegatronSequenceParallel,  // Megatron plus sequence-sharded norms and residuals
    RingAttention,             // context parallel on the last axis: every node splits the
                               // sequence, attention's core as ring attention
    Ulysses,                   // the same with attention's core split by heads between
                               // all-to-alls (DeepSpeed-Ulysses)
};

[[nodiscard]] const char* expertPlanName(ExpertPlanKind kind);
[[nodiscard]] std::optional<ExpertPlanKind> expertPlanFromName(std::string_view name);

// Megatron-LM's rule for a linear module, by its path: column-parallel for the
// projections that fan out (q, k, v, fused QKV, fc1, gate and up, LM head), row-parallel
// for those that fan in (attention output, fc2, down). Nothing for other modules.
[[nodiscard]] std::optional<AxisSplit> megatronLinearRule(const ScopePath& scope);

// Builds the expert plan. The context-parallel plans split the sequence on the last
// axis and the batch on the others. Megatron puts tensor parallelism on the mesh's last axis
// (place it inside a node) and data parallelism on the others: Linear anchors follow
// megatronLinearRule (others stay replicated), the embedding is vocabulary-parallel
// (row), attention matmuls split heads when a head-sharded input reaches them, and an
// elementwise node is hidden-sharded when a hidden-sharded input reaches it and no
// partial sum does; everything else is replicated on the tensor-parallel axis. With
// sequence parallelism, the followers on the residual stream (reading a partial or
// sequence-sharded tensor, and every normalization) are sequence-sharded instead.
// Nodes that read only graph inputs (masks, positions) stay replicated.
[[nodiscard]] Plan makeExpertPlan(ExpertPlanKind kind, const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh);

// The Megatron layout around anchor splits given per coarse node (indexed by
// CoarseNodeId; anchors without a value stay replicated): the given splits on the
// mesh's last axis, data parallelism on the others, and the followers laid out as in
// makeExpertPlan. This is how imported annotations (a Hugging Face tp_plan) become a
// plan. Throws Error(InvalidPlan) when a given split is not legal for its node's kind.
[[nodiscard]] Plan makeTensorParallelPlan(const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh,
                                          const std::vector<std::optional<AxisSplit>>& anchorSplits,
                                          bool sequenceParallel);

}  // namespace tapestry
