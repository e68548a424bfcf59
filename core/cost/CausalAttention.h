#pragma once

#include "graph/Graph.h"

#include <functional>

namespace tapestry {

// Whether the model's attention is causal, from the graph itself, never from names:
// - the graph builds a triangular mask (a Trilu, or a LessOrEqual position comparison as
//   exporters emit it); or
// - a constant whose values are a causal mask (MaskValues: what an exporter leaves where
//   it folded the mask's builder) reaches, through ops that keep it a mask, a Softmax
//   over the keys of tensors `isScores` says are attention scores.
// The ops a constant mask may pass, each keeping every key above the diagonal masked:
// reshapes that keep the last two axes (Identity, Expand, Unsqueeze, Squeeze, Reshape),
// a Slice whose starts on the two axes are known and equal (steps 1), Cast within booleans
// or within floats, Not, And of a keep mask with any boolean (a key is kept only where
// both keep it), Or of a hide mask with any boolean (hidden where either hides), And of
// two hide masks, Or of two keep masks, Where that selects a masking
// constant (at most kMaskingBias) where the mask hides, Add of anything to a causal bias,
// Sub of anything from one. A mask whose values are not causal, or that comes in as an
// input, does not make attention causal.
[[nodiscard]] bool attentionIsCausal(const Graph& graph, const std::function<bool(TensorId)>& isScores);

}  // namespace tapestry
