#pragma once

#include <QString>

#include <filesystem>

namespace tapestry {

// Finds the data files Tapestry ships beside its binary.
class ResourceLocator {
public:
    // resources/models/default.onnx (llama3_8b_shape), found by core's findResource
    // relative to this executable. Empty when it does not exist.
    [[nodiscard]] static QString defaultModelPath();
    // The README beside the resources folder (a build or source tree); empty when none.
    [[nodiscard]] static QString readmePath();
    // resources/clusters, the folder of the cluster presets; empty when it does not exist.
    [[nodiscard]] static std::filesystem::path clusterPresetDirectory();
};

}  // namespace tapestry
