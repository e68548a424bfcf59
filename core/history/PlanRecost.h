#pragma once

#include "history/HistoryIds.h"
#include "history/HistoryRecords.h"

#include <memory>

namespace tapestry {

struct Cluster;
class HistoryStore;
struct FoldedModel;

// Prices stored plan `stale` again for the current model and cluster (PlanPricing) and
// stores the result as a new plan whose parent is `stale` (same strategies, mesh,
// workload, origin and pins; a note says what changed). Throws Error(InvalidPlan) when
// the plan's nodes no longer exist in the model, or InvalidMesh when its mesh does not
// fit the cluster.
PlanRecordId recostPlan(HistoryStore& store, PlanRecordId stale, const std::shared_ptr<const FoldedModel>& model,
                        const Cluster& cluster);

}  // namespace tapestry
