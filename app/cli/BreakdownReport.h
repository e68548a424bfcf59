#pragma once

#include "cost/PlanEvaluation.h"
#include "plan/PipelineLayout.h"

#include <string>
#include <vector>

namespace tapestry {
class JsonWriter;
}

namespace tapestry::cli {

// Terminal text for a cost breakdown: step time by component, collective, axis and
// link class; memory by category against the HBM capacity.
void printBreakdown(const CostBreakdown& breakdown, const std::vector<std::string>& axisNames, double hbmBytes);

// The stages of a pipelined plan: blocks, micro-batch time, micro-batches in flight,
// memory and wait; nothing without a pipeline.
void printStages(const PlanEvaluation& evaluation, const PipelineLayout& layout);

void writeBreakdownJson(JsonWriter& json, const CostBreakdown& breakdown, const std::vector<std::string>& axisNames);

}  // namespace tapestry::cli
