#pragma once

#include "graph/DataType.h"
#include "graph/Ids.h"
#include "graph/TensorShape.h"

#include <string>
#include <vector>

namespace tapestry {

enum class TensorRole : std::uint8_t {
    GraphInput,    // fed by the caller (input_ids, pixel_values)
    Initializer,   // a weight or constant stored with the model
    Intermediate,  // produced by an op of this graph
    OuterScope,    // a subgraph's reference to a value of an enclosing graph
};

// A value flowing along the graph's edges.
// Invariants: an Intermediate tensor has exactly one producer and the producer lists it
// among its outputs; every consumer lists it among its inputs; an Initializer tensor
// has a valid `initializer` and no producer.
struct Tensor {
    TensorId id;
    std::string name;
    TensorRole role = TensorRole::Intermediate;
    DataType dtype = DataType::Undefined;
    TensorShape shape;
    OpId producer;
    std::vector<OpId> consumers;
    InitializerId initializer;
    bool isGraphOutput = false;
};

}  // namespace tapestry
