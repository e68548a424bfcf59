#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// T5 (v1.0) as Hugging Face's T5ForConditionalGeneration exports: a shared token
// embedding, encoder/block.N/layer.{0: SelfAttention, 1: DenseReluDense} and
// decoder/block.N/layer.{0: SelfAttention, 1: EncDecAttention, 2: DenseReluDense}, each
// sub-layer pre-normed by an RMS layer_norm; block 0 of each stack owns the relative
// attention bias that every block adds to its unscaled scores; final_layer_norm per
// stack; the lm_head reads the transposed shared embedding. The bucketing of relative
// positions is reduced to |i - j| clipped to the bucket count (same ops, simpler math).
// Encoder sequence "sequence", decoder "decoder_sequence". Expects a valid spec.
[[nodiscard]] Graph buildT5(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
