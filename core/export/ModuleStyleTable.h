#pragma once

#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <string>
#include <vector>

namespace tapestry {

class Graph;

// How one module is parallelized along a tensor-parallel mesh axis, in the terms of
// torch.distributed.tensor.parallel. Colwise shards the output features (torch's
// weight [out, in] Shard(0)), Rowwise the input features (Shard(1)); on an embedding
// rowwise shards the vocabulary, colwise the embedding dim.
enum class ModuleStyle : std::uint8_t { Colwise, Rowwise, EmbeddingRowwise, EmbeddingColwise, SequenceParallel };

// Activation layouts at a module's boundary that differ from the style's defaults
// (torch: ColwiseParallel takes a replicated input and leaves the output sharded on the
// last dim; RowwiseParallel takes the input sharded on the last dim and returns it
// replicated).
enum class BoundaryLayout : std::uint8_t { Default, Replicated, SequenceSharded };

struct ModuleStyleEntry {
    std::string modulePath;  // "model.layers.*.self_attn.q_proj" ("*": every instance of a family)
    ModuleStyle style = ModuleStyle::Colwise;
    BoundaryLayout input = BoundaryLayout::Default;
    BoundaryLayout output = BoundaryLayout::Default;
    bool feedsGraphOutput = false;  // its output is the model's (the LM head's logits)
    bool operator==(const ModuleStyleEntry&) const = default;
};

// The modules a plan parallelizes along one mesh axis.
struct ModuleStyleTable {
    std::size_t axis = 0;
    std::string axisName;
    std::vector<ModuleStyleEntry> entries;  // in coarse-node order
    // Coarse nodes whose split on this axis no module style expresses (a Linear split
    // on its batch, a Conv split): the export cannot carry them.
    std::vector<CoarseNodeId> unexpressed;
};

// One table per tensor-parallel axis: an axis on which some node splits its weights
// (column or row). Module paths come from each anchor's scope (for normalizations, the
// node's scope); inside a top-level family the instance index becomes "*" when every
// instance agrees, otherwise each instance is listed by its own path. Entries: Linear
// column/row, Embedding row, sequence-sharded Normalization. Boundary layouts follow
// the neighbours' layouts on the axis: a column linear whose consumers need a
// replicated input (or that feeds the graph's outputs) gathers its output; a row
// linear fed a replicated input splits it; under sequence parallelism the layouts at
// sequence-sharded neighbours are SequenceSharded. Empty for a pure data-parallel plan.
[[nodiscard]] std::vector<ModuleStyleTable> moduleStyleTables(const Graph& graph, const CoarseGraph& coarse,
                                                              const FamilyTable& families, const Plan& plan);

}  // namespace tapestry
