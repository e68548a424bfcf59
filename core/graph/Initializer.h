#pragma once

#include "graph/DataType.h"
#include "graph/Ids.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

enum class DataLocation : std::uint8_t {
    Inline,    // bytes inside the model file
    External,  // bytes in a side file that the importer never opens
};

// A stored tensor (weight or constant). Planning needs only dims and dtype; `data` is
// filled only when the importer is asked to keep inline bytes.
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
};

}  // namespace tapestry
