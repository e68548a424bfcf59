#include "search/SearchRecords.h"

#include "fold/FoldedModel.h"
#include "history/RecordsOf.h"
#include "plan/AxisSplit.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"
#include "search/SearchSetup.h"

namespace tapestry {

RunSettings searchRunSettings(const SearchSetup& setup)
{
    RunSettings settings;
    settings.command = "search";
    settings.mode = setup.options.mode == SearchMode::Tap ? "tap" : "whole-graph";
    settings.target = trainingStackName(setup.options.stack);
    settings.workload = setup.workload;
    for (const Pin& pin : setup.options.pins) {
        std::string text = pin.target + "=";
        for (std::size_t a = 0; a < pin.strategy.axes.size(); ++a)
            text += std::string(a == 0 ? "" : ",") + axisSplitName(pin.strategy.axes[a]);
        settings.pins.push_back(std::move(text));
    }
    settings.memoryLimitBytes = setup.options.memoryLimitBytes;
    return settings;
}

std::vector<PlanRecord> searchRecordsOf(const FoldedModel& model, const SearchSetup& setup,
                                        const SearchOutcome& outcome)
{
    std::vector<PlanRecord> records;
    for (const std::shared_ptr<const PlanCandidate>& candidate : outcome.recordedCandidates())
        records.push_back(
            planRecordOf(planDocument(*candidate, model.fingerprint, setup), model.coarse, model.families));
    return records;
}

}  // namespace tapestry
