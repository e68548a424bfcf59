#pragma once

#include "base/StrongId.h"

namespace tapestry {

using OpId = StrongId<struct OpIdTag>;
using TensorId = StrongId<struct TensorIdTag>;
using InitializerId = StrongId<struct InitializerIdTag>;

}  // namespace tapestry
