#pragma once

#include "graph/DataType.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace tapestry {

// What a constant's values say when it is read as an attention mask, found once from its
// bytes when the model is read (the bytes themselves are not kept). An exporter that folds
// a model's causal mask leaves a constant where the builder of the mask was; only its
// values tell that it is causal. The matrix is the last two axes, rows the queries and
// columns the keys; every leading slice must show the same pattern.
enum class MaskValues : std::uint8_t {
    Unknown,     // anything else, and constants whose bytes the file does not hold
    Masking,     // every value at most kMaskingBias (or -inf): added to a score, its key gets no weight
    CausalKeep,  // boolean (bool, or an integer type of 0 and 1): true on and below the diagonal only
    CausalHide,  // boolean: true strictly above the diagonal only
    CausalBias,  // floating point: 0 on and below the diagonal, at most kMaskingBias above it
};

// The least negative value that masks a key: -10,000, the smallest any exporter writes
// (Hugging Face's older extended masks; newer ones write the type's lowest value or
// -inf). Its exponential underflows to 0 in every float format, so a softmax gives such
// a key no weight.
inline constexpr double kMaskingBias = -10000.0;

// Classifies `bytes`, the little-endian values (ONNX raw_data layout) of a tensor of
// `dtype` and `dims`. A causal pattern needs at least 2 rows and 2 columns (so that some
// key is masked) and holds for top-left aligned matrices of any width: key j is visible
// to query i exactly when j <= i. Returns Unknown when the byte count does not match
// the dims, and for types it cannot read (8-bit floats, 4-bit integers, strings).
[[nodiscard]] MaskValues maskValuesOf(DataType dtype, std::span<const std::int64_t> dims,
                                      std::span<const std::byte> bytes);

}  // namespace tapestry
