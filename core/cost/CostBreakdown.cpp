#include "cost/CostBreakdown.h"

namespace tapestry {

double TimeBreakdown::communicationSeconds() const
{
    double total = 0;
    for (const double seconds : byCollective)
        total += seconds;
    return total;
}

void TimeBreakdown::add(const TimeBreakdown& other, double count)
{
    computeSeconds += count * other.computeSeconds;
    recomputeSeconds += count * other.recomputeSeconds;
    optimizerSeconds += count * other.optimizerSeconds;
    dataParallelSeconds += count * other.dataParallelSeconds;
    hiddenSeconds += count * other.hiddenSeconds;
    pipelineSendSeconds += count * other.pipelineSendSeconds;
    bubbleSeconds += count * other.bubbleSeconds;
    for (std::size_t i = 0; i < byCollective.size(); ++i)
        byCollective[i] += count * other.byCollective[i];
    for (std::size_t i = 0; i < byLink.size(); ++i)
        byLink[i] += count * other.byLink[i];
    if (byAxis.size() < other.byAxis.size())
        byAxis.resize(other.byAxis.size(), 0.0);
    for (std::size_t i = 0; i < other.byAxis.size(); ++i)
        byAxis[i] += count * other.byAxis[i];
}

void MemoryBreakdown::add(const MemoryBreakdown& other, double count)
{
    parameters += count * other.parameters;
    gradients += count * other.gradients;
    optimizerStates += count * other.optimizerStates;
    activations += count * other.activations;
    transient += count * other.transient;
}

void CostBreakdown::add(const CostBreakdown& other, double count)
{
    time.add(other.time, count);
    memory.add(other.memory, count);
}

}  // namespace tapestry
