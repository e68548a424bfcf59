#pragma once

#include "fold/FamilyTable.h"
#include "history/HistoryRecords.h"

namespace tapestry {

class Graph;
struct Cluster;
struct PlanDocument;

// The history's records of what the CLI and the GUI work with, built one way for both,
// so that each sees the other's runs and plans of the same file and cluster.

// The model by fingerprint and absolute, normalized path.
[[nodiscard]] ModelRecord modelRecordOf(const Graph& graph);
// The cluster by name and full description (an edited preset is another cluster).
[[nodiscard]] ClusterRecord clusterRecordOf(const Cluster& cluster);
// A plan with its JSON (planToJson) and cost summary; run and parent are the caller's.
[[nodiscard]] PlanRecord planRecordOf(const PlanDocument& document, const CoarseGraph& coarse,
                                      const FamilyTable& families);

}  // namespace tapestry
