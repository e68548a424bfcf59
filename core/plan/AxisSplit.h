#pragma once

#include "fold/CoarseGraph.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapestry {

// What a coarse node does along one mesh axis (cost-model.md, "Layouts and strategies").
// For a matmul-like anchor Y[b, n] = X[b, k] W[k, n]:
//   None     every device of the axis computes the whole op (replicated)
//   Batch    split b: data parallel, W replicated (its gradient is synchronized)
//   Column   split n: W by columns, Y sharded on its feature dim (Megatron's f)
//   Row      split k: W by rows, X sharded on k, Y partial sums (Megatron's g)
//   Sequence split the tokens (context parallelism): weights replicated like Batch, the
//            activations sharded on the sequence; on attention's core it is ring attention
//            (keys and values pass around the axis, cost/CostModel.h)
//   Head     batched attention matmuls: split the heads (Megatron's attention; between
//            sequence-split projections it is DeepSpeed-Ulysses: the layouts' all-to-alls)
//   Expert   a mixture-of-experts layer's experts spread over the axis (expert
//            parallelism): each rank keeps its share of the experts and works on the
//            tokens routed to them (the Expert layout), which reach them by an all-to-all
//            and go back by another (the layouts' conversions, cost/CostModel.h); only
//            linear and elementwise nodes inside an expert may take it, over axes whose
//            sizes multiply to a divisor of the expert count (CostModel::accepts)
// Followers (normalization, elementwise) choose their activation layout:
//   None (replicated), Batch, Sequence (Megatron's sequence parallelism), Hidden, and
//   inside an expert Expert.
enum class AxisSplit : std::uint8_t { None, Batch, Sequence, Column, Row, Head, Hidden, Expert };

// How an activation lies along one mesh axis.
// Expert: the tokens routed to the experts a rank keeps (what an expert dispatch makes).
enum class AxisLayout : std::uint8_t { Replicated, Batch, Sequence, Hidden, Partial, Expert };

[[nodiscard]] const char* axisSplitName(AxisSplit split);
[[nodiscard]] std::optional<AxisSplit> axisSplitFromName(std::string_view name);
[[nodiscard]] const char* axisLayoutName(AxisLayout layout);

// The splits a coarse node of `kind` may use on an axis.
[[nodiscard]] const std::vector<AxisSplit>& legalSplits(CoarseNodeKind kind);
[[nodiscard]] bool isLegalSplit(CoarseNodeKind kind, AxisSplit split);

// Layout the node needs for its activation inputs, the layout of its output, and the
// layout of the input gradient it produces in the backward pass.
[[nodiscard]] AxisLayout requiredInputLayout(CoarseNodeKind kind, AxisSplit split);
[[nodiscard]] AxisLayout outputLayout(AxisSplit split);
[[nodiscard]] AxisLayout inputGradientLayout(CoarseNodeKind kind, AxisSplit split);
// Whether the split shards the node's weights along the axis (Column, Row).
[[nodiscard]] bool splitsWeights(AxisSplit split);
// Whether the weights stay replicated while the data is split, so that their
// gradients need an AllReduce over the axis (Batch, Sequence).
[[nodiscard]] bool synchronizesGradients(AxisSplit split);

}  // namespace tapestry
