#pragma once

#include "base/StrongId.h"

namespace tapestry {

// Row ids of the history database, typed so that a run id cannot name a plan.
using ModelRecordId = StrongId<struct ModelRecordIdTag>;
using ClusterRecordId = StrongId<struct ClusterRecordIdTag>;
using MeshRecordId = StrongId<struct MeshRecordIdTag>;
using RunId = StrongId<struct RunIdTag>;
using PlanRecordId = StrongId<struct PlanRecordIdTag>;

}  // namespace tapestry
