#include "cost/Workload.h"

namespace tapestry {

const char* optimizerName(OptimizerKind kind)
{
    return kind == OptimizerKind::AdamMixedPrecision ? "adam" : "sgd";
}

int optimizerStateBytesPerParameter(OptimizerKind kind)
{
    return kind == OptimizerKind::AdamMixedPrecision ? 12 : 8;
}

}  // namespace tapestry
