#pragma once

#include "cost/CostModel.h"

namespace tapestry {

// What an ML engineer checks a step time against: tokens per second per GPU and the
// model FLOPs utilization (MFU: the model's forward and backward FLOPs per step, three
// times the forward's, recomputation not counted, over the step time and the peak of
// every GPU of the mesh and its pipeline stages).
struct Throughput {
    double tokensPerSecondPerGpu = 0;
    double modelFlopsUtilization = 0;  // a fraction of the peak
};

[[nodiscard]] Throughput throughputOf(const CostModel& costs, const CoarseGraph& coarse, double peakFlopsPerSecond,
                                      double stepSeconds);

}  // namespace tapestry
