#include "search/SearchWorkloadCheck.h"

#include "base/Error.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "search/SearchSetup.h"
#include "target/StackRules.h"

namespace tapestry {

void checkSearchWorkload(const FoldedModel& model, const SearchSetup& setup, const WorkloadFieldNames& names)
{
    WorkloadDegrees degrees;
    const ShapeBinder binder(model.graph(), setup.workload, ShapeBinder::defaultBatchFor(setup.cluster.deviceCount()));
    addModelExperts(degrees, model, binder);
    degrees.tokensPerMicroStep = static_cast<double>(binder.batch()) * static_cast<double>(binder.sequence());
    checkWorkload(setup.workload, degrees, names, {});

    const TrainingStack stack = setup.options.stack;
    if (stack == TrainingStack::Any)
        return;
    std::vector<std::string> notes = stackModelNotes(stack, model);
    if (!notes.empty())
        throw Error(ErrorCode::InvalidArgument, {},
                    std::string(trainingStackName(stack)) + " does not run this model: " + notes.front());
    for (const Workload& variant : setup.workloadVariants()) {
        TrainingStackSettings alone;  // one GPU: only what the workload asks
        alone.workload = withStackImplementations(variant, stack);
        notes = stackSettingNotes(stack, alone);
        if (notes.empty())
            return;
    }
    std::string reasons;
    for (const std::string& note : notes)
        reasons += (reasons.empty() ? "" : "; ") + note;
    throw Error(ErrorCode::InvalidArgument, {}, std::string(trainingStackName(stack)) + " does not run this workload: " + reasons);
}

}  // namespace tapestry
