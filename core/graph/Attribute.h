#pragma once

#include "graph/DataType.h"
#include "graph/MaskValues.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tapestry {

// A constant tensor held by an attribute (e.g. Constant's `value`): its type and dims;
// the payload is kept only when small enough to matter for shapes (int64 vectors), and
// what its values say as an attention mask.
struct AttributeTensor {
    DataType dtype = DataType::Undefined;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> int64Values;
    MaskValues maskValues = MaskValues::Unknown;
};

// Index into Op::subgraphs for If/Loop/Scan bodies.
struct AttributeSubgraph {
    std::size_t index = 0;
};

using AttributeValue = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>,
                                    std::vector<double>, std::vector<std::string>, AttributeTensor,
                                    AttributeSubgraph>;

struct Attribute {
    std::string name;
    AttributeValue value;
};

}  // namespace tapestry
