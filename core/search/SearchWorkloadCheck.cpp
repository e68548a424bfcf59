#include "search/SearchWorkloadCheck.h"

#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "search/SearchSetup.h"

namespace tapestry {

void checkSearchWorkload(const FoldedModel& model, const SearchSetup& setup, const WorkloadFieldNames& names)
{
    WorkloadDegrees degrees;
    const ShapeBinder binder(model.graph(), setup.workload, ShapeBinder::defaultBatchFor(setup.cluster.deviceCount()));
    addModelExperts(degrees, model, binder);
    degrees.tokensPerMicroStep = static_cast<double>(binder.batch()) * static_cast<double>(binder.sequence());
    checkWorkload(setup.workload, degrees, names, {});
}

}  // namespace tapestry
