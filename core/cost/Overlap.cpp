#include "cost/Overlap.h"

#include <algorithm>

namespace tapestry {

double exposedCommunicationSeconds(double communicationSeconds, double hidingComputeSeconds, int buckets)
{
    if (communicationSeconds <= 0)
        return 0;
    const double last = communicationSeconds / std::max(buckets, 1);
    const double exposed = last + std::max(0.0, communicationSeconds - last - std::max(0.0, hidingComputeSeconds));
    return exposed + hiddenCommunicationCost(communicationSeconds - exposed);
}

}  // namespace tapestry
