#include "cost/Throughput.h"

namespace tapestry {

Throughput throughputOf(const CostModel& costs, const CoarseGraph& coarse, double peakFlopsPerSecond, double stepSeconds)
{
    Throughput throughput;
    const double gpus = static_cast<double>(costs.mesh().deviceCount()) * costs.pipeline().layout.stages;
    if (stepSeconds <= 0 || gpus <= 0)
        return throughput;
    const double tokens = static_cast<double>(costs.shapes().batch()) * static_cast<double>(costs.shapes().sequence());
    double forwardFlops = 0;
    for (const CoarseNode& node : coarse.nodes)
        forwardFlops += costs.facts(node.id).flops * costs.facts(node.id).modelShare;
    throughput.tokensPerSecondPerGpu = tokens / stepSeconds / gpus;
    if (peakFlopsPerSecond > 0)
        throughput.modelFlopsUtilization = 3 * forwardFlops / (stepSeconds * gpus * peakFlopsPerSecond);
    return throughput;
}

}  // namespace tapestry
