#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"
#include "cost/Workload.h"
#include "fold/FoldedModel.h"

#include <optional>
#include <string>
#include <vector>

namespace tapestry::cli {

class CommandLine;

// What the planning commands share: the model imported and folded (foldModel), the
// cluster, the mesh and the workload chosen on the command line.
[[nodiscard]] FoldedModel loadAndFold(const std::string& modelFile);

// --cluster NAME (a preset from resources/clusters) or --cluster FILE.json, with an
// optional --nodes N to change the node count.
[[nodiscard]] Cluster clusterFromOptions(const CommandLine& line, const char* argv0);

// --mesh AxB[xC] with optional --axes NAME,NAME; the default names are "d" for a 1-D
// mesh and "dp","tp" for a 2-D mesh (tensor parallelism on the last, fastest axis).
[[nodiscard]] std::vector<MeshAxis> meshAxesFromOptions(const CommandLine& line, const Cluster& cluster);

// --batch N --seq L (0: as the model says), --optimizer adam|sgd, --zero1.
[[nodiscard]] Workload workloadFromOptions(const CommandLine& line);

}  // namespace tapestry::cli
