#pragma once

#include "graph/DataType.h"

#include <cstdint>

namespace tapestry {

enum class OptimizerKind : std::uint8_t {
    AdamMixedPrecision,  // fp32 master weights, m and v: 12 bytes per parameter
    SgdMomentum,         // fp32 master weights and momentum: 8 bytes per parameter
};

[[nodiscard]] const char* optimizerName(OptimizerKind kind);
[[nodiscard]] int optimizerStateBytesPerParameter(OptimizerKind kind);

// One training step: global batch of `batch` sequences of `sequence` tokens.
// Zero means "as the model's inputs say" (see ShapeBinder).
struct Workload {
    std::int64_t batch = 0;
    std::int64_t sequence = 0;
    DataType computeType = DataType::BFloat16;  // activations, weights and gradients
    OptimizerKind optimizer = OptimizerKind::AdamMixedPrecision;
    bool zero1 = false;  // optimizer states sharded over the data-parallel axes
};

}  // namespace tapestry
