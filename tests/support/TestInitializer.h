#pragma once

// An initializer as a small test graph declares it: its dims and type, the element and byte
// counts they make, and its bytes when the test writes them inline (an ONNX file's folded
// constant).
#include "graph/Initializer.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tapestry::test {

inline Initializer testInitializer(std::string name, DataType dtype, std::vector<std::int64_t> dims,
                                   std::vector<std::byte> data = {})
{
    Initializer init;
    init.name = std::move(name);
    init.dtype = dtype;
    init.dims = std::move(dims);
    for (const std::int64_t d : init.dims)
        init.elementCount *= static_cast<std::uint64_t>(d);
    init.byteSize = (init.elementCount * static_cast<std::uint64_t>(dataTypeBits(dtype)) + 7) / 8;
    init.data = std::move(data);
    return init;
}

}  // namespace tapestry::test
