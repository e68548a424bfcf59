#pragma once

#include "graph/DataType.h"
#include "graph/ModelInfo.h"
#include "graph/ParameterCount.h"
#include "graph/TensorShape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

class Graph;

struct OpTypeCount {
    std::string type;
    std::uint64_t count = 0;
};

struct ValueSummary {
    std::string name;
    DataType dtype = DataType::Undefined;
    TensorShape shape;
};

struct ScopeSummary {
    std::string path;  // "model/layers.0"
    std::size_t depth = 0;
    std::uint32_t opCount = 0;  // including everything below
};

// What `tapestry-cli inspect` prints and the GUI's summary panel shows.
struct ModelSummary {
    ModelInfo info;
    std::size_t opCount = 0;
    std::size_t tensorCount = 0;
    std::size_t initializerCount = 0;
    std::vector<OpTypeCount> opHistogram;  // most frequent first, ties by name
    ParameterCount parameters;
    std::vector<ValueSummary> inputs;
    std::vector<ValueSummary> outputs;
    std::vector<ScopeSummary> scopes;  // depth 1..maxScopeDepth, in tree order
};

[[nodiscard]] ModelSummary summarizeModel(const Graph& graph, std::size_t maxScopeDepth = 2);

}  // namespace tapestry
