#include "cost/CostBreakdown.h"

namespace tapestry {

double TimeBreakdown::communicationSeconds() const
{
    double total = 0;
    for (const double seconds : byCollective)
        total += seconds;
    return total;
}

void TimeBreakdown::add(const TimeBreakdown& other)
{
    computeSeconds += other.computeSeconds;
    recomputeSeconds += other.recomputeSeconds;
    optimizerSeconds += other.optimizerSeconds;
    dataParallelSeconds += other.dataParallelSeconds;
    hiddenSeconds += other.hiddenSeconds;
    pipelineSendSeconds += other.pipelineSendSeconds;
    bubbleSeconds += other.bubbleSeconds;
    for (std::size_t i = 0; i < byCollective.size(); ++i)
        byCollective[i] += other.byCollective[i];
    for (std::size_t i = 0; i < byLink.size(); ++i)
        byLink[i] += other.byLink[i];
    if (byAxis.size() < other.byAxis.size())
        byAxis.resize(other.byAxis.size(), 0.0);
    for (std::size_t i = 0; i < other.byAxis.size(); ++i)
        byAxis[i] += other.byAxis[i];
}

void MemoryBreakdown::add(const MemoryBreakdown& other)
{
    parameters += other.parameters;
    gradients += other.gradients;
    optimizerStates += other.optimizerStates;
    activations += other.activations;
    transient += other.transient;
}

void CostBreakdown::add(const CostBreakdown& other)
{
    time.add(other.time);
    memory.add(other.memory);
}

}  // namespace tapestry
