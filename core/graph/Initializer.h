#pragma once

#include "graph/DataType.h"
#include "graph/Ids.h"
#include "graph/MaskValues.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

enum class DataLocation : std::uint8_t {
    Inline,    // bytes inside the model file
    External,  // bytes in a side file that the importer never opens
};

// A stored tensor (weight or constant). Planning needs only dims and dtype, and of a
// few constants what their values say: `data` is filled only when the importer is asked
// to keep inline bytes, `int64Values` for inline int64 vectors (rank 0 or 1: the
// starts, axes and shapes that Slice and Reshape read), `maskValues` for every inline
// constant.
// Invariant: byteSize == ceil(product(dims) * bits(dtype) / 8).
struct Initializer {
    InitializerId id;
    TensorId tensor;
    std::string name;
    DataType dtype = DataType::Undefined;
    std::vector<std::int64_t> dims;
    std::uint64_t elementCount = 1;
    std::uint64_t byteSize = 0;
    DataLocation location = DataLocation::Inline;
    std::string externalFile;
    std::vector<std::byte> data;
    std::vector<std::int64_t> int64Values;
    MaskValues maskValues = MaskValues::Unknown;
};

}  // namespace tapestry
