#include "cost/Overlap.h"

#include <algorithm>

namespace tapestry {

double exposedCommunicationSeconds(double communicationSeconds, double hidingComputeSeconds, int buckets)
{
    if (communicationSeconds <= 0)
        return 0;
    const double last = communicationSeconds / std::max(buckets, 1);
    const double overlappable = communicationSeconds - last;
    return last + std::max(overlappable - std::max(0.0, hidingComputeSeconds), hiddenCommunicationCost(overlappable));
}

}  // namespace tapestry
