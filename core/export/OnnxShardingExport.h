#pragma once

#include "onnx/OnnxShardingAnnotations.h"
#include "plan/PlanFile.h"

#include <filesystem>
#include <string>

namespace tapestry {

class Graph;

// What the plan says about each anchor op, as ONNX sharding annotations: one device
// configuration "tapestry:<plan name>" over the mesh's devices (numbered row-major over
// the mesh axes, "0".."N-1"); for every anchor split on some axis, its weight (column:
// the output-feature dim, i.e. dim 1 of a MatMul's [in, out] operand; row: the
// input-feature dim; an embedding row: the vocabulary), its activation input (batch:
// dim 0; row: the last dim) and its output (batch: dim 0; column: the last dim), each
// with the devices holding each shard (a device group where other axes replicate it);
// and the plan's JSON under metadata "tapestry.plan".
[[nodiscard]] OnnxShardingAnnotations onnxShardingAnnotations(const Graph& graph, const CoarseGraph& coarse,
                                                              const FamilyTable& families,
                                                              const PlanDocument& document);

// The model file the graph was imported from (graph.info().sourcePath, re-read; weights
// never opened) with those annotations: the bytes of an ONNX file.
[[nodiscard]] std::string exportShardedOnnx(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                            const PlanDocument& document);

inline constexpr const char* kOnnxPlanMetadataKey = "tapestry.plan";

// The plan an exportShardedOnnx file carries under that metadata key, for the model whose
// coarse graph and families are given. Throws what readOnnxShardingAnnotations and
// planFromJson throw, and Error(InvalidPlan) naming the file when it carries no plan.
[[nodiscard]] PlanDocument importShardedOnnxPlan(const std::filesystem::path& file, const CoarseGraph& coarse,
                                                 const FamilyTable& families);

}  // namespace tapestry
