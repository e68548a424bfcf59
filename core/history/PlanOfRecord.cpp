#include "history/PlanOfRecord.h"

#include "fold/FoldedModel.h"

#include <string>

namespace tapestry {

PlanDocument planOfRecord(const PlanRecord& record, const std::filesystem::path& historyFile, const FoldedModel& model)
{
    const std::string name = historyFile.string() + " plan " + std::to_string(record.id.value());
    return planFromJson(record.json, name, model.coarse, model.families);
}

}  // namespace tapestry
