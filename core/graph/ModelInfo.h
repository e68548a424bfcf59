#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

struct OpsetImport {
    std::string domain;  // "" is the default ONNX domain
    std::int64_t version = 0;
};

// Where a graph came from: the file and what its writer said about itself.
struct ModelInfo {
    std::string sourcePath;
    std::string producerName;
    std::string producerVersion;
    std::int64_t irVersion = 0;
    std::vector<OpsetImport> opsetImports;
    std::string graphName;
    // True when shapes came from ONNX shape inference rather than the file's value_info.
    bool shapesInferred = false;
    // MatMul, Gemm and Conv ops some of whose operands have no known rank after every
    // inference: they are kept in the graph but not priced (no flops, no bytes).
    std::vector<std::string> unsizedOps;
};

}  // namespace tapestry
