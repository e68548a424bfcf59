#pragma once

#include <string>

namespace tapestry {

struct Cluster;

// Everything about a cluster that enters the cost model, as JSON text: node and GPU
// counts, the GPU's speed and memory, both link classes and any calibration curves.
// Equal clusters give equal text, so the history can tell an edited preset that kept
// its name (its plans are stale) from the same cluster used again.
[[nodiscard]] std::string describeCluster(const Cluster& cluster);

}  // namespace tapestry
