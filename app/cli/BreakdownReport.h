#pragma once

#include "cost/PlanEvaluation.h"

#include <string>
#include <vector>

namespace tapestry {
class JsonWriter;
}

namespace tapestry::cli {

// Terminal text for a cost breakdown: step time by component, collective, axis and
// link class; memory by category against the HBM capacity.
void printBreakdown(const CostBreakdown& breakdown, const std::vector<std::string>& axisNames, double hbmBytes);

void writeBreakdownJson(JsonWriter& json, const CostBreakdown& breakdown, const std::vector<std::string>& axisNames);

}  // namespace tapestry::cli
