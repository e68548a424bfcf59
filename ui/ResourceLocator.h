#pragma once

#include <QString>

namespace tapestry {

// Finds the data files Tapestry ships beside its binary.
class ResourceLocator {
public:
    // resources/models/default.onnx (llama3_8b_shape): first an installed copy in
    // <prefix>/share/tapestry/models next to <prefix>/bin, then the source tree's
    // resources/ (compiled in, so a binary run from its build directory finds it).
    // Empty when neither exists.
    [[nodiscard]] static QString defaultModelPath();
};

}  // namespace tapestry
