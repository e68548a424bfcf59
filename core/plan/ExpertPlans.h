#pragma once

#include "plan/Plan.h"

#include <optional>
#include <string_view>

namespace tapestry {

enum class ExpertPlanKind : std::uint8_t {
    DataParallel,              // every node splits the batch on every axis
    Megatron,                  // tensor parallel on the last axis, data parallel on the others
    MegatronSequenceParallel,  // Megatron plus sequence-sharded norms and residuals
};

[[nodiscard]] const char* expertPlanName(ExpertPlanKind kind);
[[nodiscard]] std::optional<ExpertPlanKind> expertPlanFromName(std::string_view name);

// Megatron-LM's rule for a linear module, by its path: column-parallel for the
// projections that fan out (q, k, v, fused QKV, fc1, gate and up, LM head), row-parallel
// for those that fan in (attention output, fc2, down). Nothing for other modules.
[[nodiscard]] std::optional<AxisSplit> megatronLinearRule(const ScopePath& scope);

// Builds the expert plan. Megatron puts tensor parallelism on the mesh's last axis
// (place it inside a node) and data parallelism on the others: Linear anchors follow
// megatronLinearRule (others stay replicated), the embedding is vocabulary-parallel
// (row), attention matmuls split heads when their inputs arrive head-sharded, and
// every other node takes the layout its inputs arrive in: hidden-sharded inside a
// column..row region, replicated (or, with sequence parallelism, sequence-sharded)
// outside. Nodes that read only graph inputs stay replicated.
[[nodiscard]] Plan makeExpertPlan(ExpertPlanKind kind, const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh);

}  // namespace tapestry
