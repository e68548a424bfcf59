#pragma once

#include "graph/Attribute.h"
#include "graph/Ids.h"
#include "graph/ScopePath.h"

#include <memory>
#include <string>
#include <vector>

namespace tapestry {

class Graph;

// One operator node. Invariants: every valid id in `inputs` and `outputs` refers to a
// tensor of the same graph; an omitted optional input is an invalid TensorId; an op
// appears in the consumers of each of its inputs and is the producer of its outputs.
struct Op {
    OpId id;
    std::string name;
    std::string type;    // "MatMul", "Gemm", ...
    std::string domain;  // "" for the default ONNX domain
    std::vector<TensorId> inputs;
    std::vector<TensorId> outputs;
    std::vector<Attribute> attributes;
    ScopePath scope;
    // Bodies of If/Loop/Scan, imported but not planned.
    std::vector<std::shared_ptr<const Graph>> subgraphs;

    [[nodiscard]] const Attribute* findAttribute(std::string_view attributeName) const
    {
        for (const Attribute& a : attributes) {
            if (a.name == attributeName)
                return &a;
        }
        return nullptr;
    }
};

}  // namespace tapestry
