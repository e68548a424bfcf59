#pragma once

#include "cost/WorkloadCheck.h"

namespace tapestry {

struct FoldedModel;
struct SearchSetup;

// Refuses a search's workload that contradicts itself (checkWorkload, Error(InvalidArgument,
// {}, "FIELD: RULE")) before any plan is priced: what every plan of the search shares (the
// sizes' bounds, the global batch against the micro-batch, the capacity factor against the
// most tokens a micro-step can hold: the whole batch, bound as the cost model binds it); the
// data-parallel degree is each plan's. The CLI's search and the GUI's name the fields
// their own way. A search for a training stack is refused too when the stack runs none of
// the workloads the search may choose, whatever their layout (ZeRO 1 fixed for
// torchtitan, FP8 for the PyTorch export): Error(InvalidArgument, {}, "STACK does not run
// this workload: NOTES"), the stack's own notes (stackSettingNotes).
void checkSearchWorkload(const FoldedModel& model, const SearchSetup& setup, const WorkloadFieldNames& names);

}  // namespace tapestry
