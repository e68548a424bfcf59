#pragma once

#include "history/HistoryIds.h"
#include "history/HistoryRecords.h"

namespace tapestry {

struct Cluster;
class Graph;
class HistoryStore;
struct CoarseGraph;
struct FamilyTable;

// The model and cluster a stale plan is priced again for.
struct RecostInputs {
    const Graph& graph;
    const CoarseGraph& coarse;
    const FamilyTable& families;
    const Cluster& cluster;
    ModelRecord model;      // the current model file's record (path, fingerprint, summary)
};

// Prices stored plan `stale` again for the current model and cluster and stores the
// result as a new plan whose parent is `stale` (same strategies, mesh, workload,
// origin and pins; a note says what changed). Throws Error(InvalidPlan) when the
// plan's nodes no longer exist in the model, or InvalidMesh when its mesh does not fit
// the cluster.
PlanRecordId recostPlan(HistoryStore& store, PlanRecordId stale, const RecostInputs& inputs);

}  // namespace tapestry
