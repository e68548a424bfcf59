#pragma once

#include "layout/LayoutGraph.h"
#include "layout/LayoutResult.h"

#include <string>

namespace tapestry {

// Lays `graph` out top to bottom with Graphviz `dot`, in process. Safe to call from any
// thread: every Graphviz call is serialized behind one process-wide mutex, so callers
// queue rather than run in parallel. Blocking (≈0.4 s at 1,000 nodes, ≈3 s at 3,000,
// growing about quadratically): never call it on the GUI thread, and lay out folded or
// coarse graphs, not raw op graphs.
// Throws tapestry::Error (ErrorCode::InvalidArgument) when Graphviz rejects the graph.
[[nodiscard]] LayoutResult layOut(const LayoutGraph& graph);

// `graph` drawn by Graphviz `dot` as a file of `format` ("svg", "png"): its bytes.
// Serialized and blocking like layOut. Throws tapestry::Error (InvalidArgument) when
// Graphviz rejects the graph or has no renderer for the format.
[[nodiscard]] std::string renderGraph(const LayoutGraph& graph, const char* format);

}  // namespace tapestry
