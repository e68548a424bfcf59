#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// Builds the reference model a spec describes, with the TorchScript exporter's names
// and a dtype and shape on every tensor. Weights are external initializers without
// bytes. Throws tapestry::Error (InvalidArgument) for a spec that validateModelSpec
// rejects. `graphName` becomes the graph's name (the preset, typically).
[[nodiscard]] Graph synthesizeModel(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
