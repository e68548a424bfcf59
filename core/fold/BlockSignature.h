#pragma once

#include "fold/CoarseGraph.h"

#include <string>
#include <vector>

namespace tapestry {

class Graph;

// A canonical text of a block that two blocks share exactly when they are the same
// block in the same op order: per coarse node its kind and, per activation op, its
// type, attributes, output shapes and where each input comes from (another op of the
// block by position, a constant of some shape, or outside). Names never enter it;
// shape-inference placeholders ("unk__3") read as unknown dims, and so do the symbols
// of op outputs (see appendShape).
[[nodiscard]] std::string blockSignature(const Graph& graph, const CoarseGraph& coarse,
                                         const std::vector<CoarseNodeId>& nodes);

// The block as the plan sees it: per coarse node its kind, which nodes of the block it
// reads (and whether it reads from outside), and its ops except the plan-neutral ones
// (re-layouts such as Slice, Concat, Reshape, Transpose; elementwise ops with a
// constant operand), with attributes and known extents. Blocks that share it but not
// their blockSignature differ only in ops no plan decision depends on (Swin's shifted
// windows), so one decision serves both.
[[nodiscard]] std::string structuralSignature(const Graph& graph, const CoarseGraph& coarse,
                                              const std::vector<CoarseNodeId>& nodes);

// The anchors alone (kind, op type, weight shapes): equal for near-identical blocks.
[[nodiscard]] std::string anchorSignature(const Graph& graph, const CoarseGraph& coarse,
                                          const std::vector<CoarseNodeId>& nodes);

// What differs between two blocks' activation ops, as "+1 Gelu, -1 Relu"; also names a
// shape difference when the op types agree.
[[nodiscard]] std::string describeBlockDifference(const Graph& graph, const CoarseGraph& coarse,
                                                  const std::vector<CoarseNodeId>& block,
                                                  const std::vector<CoarseNodeId>& reference);

}  // namespace tapestry
