#pragma once

#include "synth/TorchScriptEmitter.h"

#include <cstdint>
#include <string>

namespace tapestry {

// Op sequences that transformer families share, emitted as the TorchScript exporter
// writes them at opset 17 (which has no Gelu or RMSNormalization op). Hidden states
// are [batch, seq, width]; `scope` is the module the ops belong to and weights are
// named after it ("<module path>.weight").

// Hidden-state shape [batch, seq, width].
[[nodiscard]] TensorShape hiddenShape(const Dimension& batch, const Dimension& seq, std::int64_t width);

// LayerNormalization over the last axis with weight and bias; `outputName` names a
// graph output ("last_hidden_state").
std::string layerNorm(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape,
                      std::string outputName = {});
// x * rsqrt(mean(x^2) + eps) * weight: Pow, ReduceMean, Add, Sqrt, Div, Mul, Mul.
std::string rmsNorm(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape);
// nn.Linear as exported for 3-D input: MatMul with the weight as [in, out], then Add of
// the bias when there is one. `shape` is the input's; the output has `out` last.
std::string linear(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape,
                   std::int64_t out, bool bias);

std::string geluTanh(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape);
std::string geluErf(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape);
std::string silu(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape);

// One extent of `tensor` at run time as an int64 scalar: Shape, then Gather.
std::string runtimeExtent(TorchScriptEmitter& e, const std::string& scope, const std::string& tensor,
                          std::int64_t rank, std::int64_t axis);

// [batch, seq] 0/1 attention mask -> additive float mask [batch, 1, 1, seq].
std::string additiveMask(TorchScriptEmitter& e, const std::string& scope, const std::string& mask,
                         const Dimension& batch, const Dimension& seq);

// Causal (left-to-right) additive mask [1, 1, seq, seq] for the sequence of `ids`
// ([batch, seq]): ConstantOfShape, Trilu above the diagonal, scaled to a large negative.
std::string causalMask(TorchScriptEmitter& e, const std::string& scope, const std::string& ids, const Dimension& seq);

// Dropout in training mode: the kept values and the mask ([output, mask]); the mask is
// bool, one byte per element.
std::string dropout(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape);

// Multi-head attention on projected q, k, v ([batch, seq, heads*headDim], k and v with
// kvHeads): reshape to heads, k transposed for the scores, GQA key/value heads repeated
// (Unsqueeze, Expand, Reshape), scores scaled (unless `scale` is false), `bias` added
// unless empty (mask or position bias, broadcast to [batch, heads, qSeq, kvSeq]), Softmax, weighted
// sum, heads merged back. `rotary` is the [batch, seq, headDim] cos and sin pair to
// apply to q and k, or null; `dropoutProbabilities` adds dropout on the softmax output.
// Returns [batch, qSeq, heads*headDim].
struct AttentionGeometry {
    Dimension batch;
    Dimension querySeq;
    Dimension keySeq;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;
    std::int64_t headDim = 0;
};
struct RotaryTables {
    std::string cos;
    std::string sin;
};
std::string attention(TorchScriptEmitter& e, const std::string& scope, const AttentionGeometry& g,
                      const std::string& q, const std::string& k, const std::string& v, const std::string& bias,
                      bool scale, const RotaryTables* rotary = nullptr, bool dropoutProbabilities = false);

// cos/sin tables [batch, seq, headDim] from position_ids [batch, seq] (Llama's
// rotary_emb; inv_freq is a Constant, not a parameter).
RotaryTables rotaryTables(TorchScriptEmitter& e, const std::string& scope, const std::string& positionIds,
                          const Dimension& batch, const Dimension& seq, std::int64_t headDim);

}  // namespace tapestry
