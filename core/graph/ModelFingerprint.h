#pragma once

#include <string>

namespace tapestry {

class Graph;

// A 16-hex-digit hash of the graph's structure and shapes: op types and attributes,
// how ops are wired, tensor shapes and weight dims, in topological order. Names and
// weight values do not enter it, so a re-export with other names but the same network
// keeps its fingerprint, and a changed layer width does not.
[[nodiscard]] std::string modelFingerprint(const Graph& graph);

}  // namespace tapestry
