#pragma once

// What most core tests start from: a model imported (from tests/data) or synthesized,
// coarsened and pruned, the cluster presets shipped in resources/clusters, a workload.
#include "cluster/ClusterFile.h"
#include "cost/Workload.h"
#include "fold/FoldedModel.h"
#include "onnx/OnnxImporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace tapestry::test {

inline std::string testDataFile(const char* name)
{
    return std::string(TAPESTRY_TEST_DATA_DIR) + "/" + name;
}

inline FoldedModel foldTestFile(const char* name)
{
    return foldModel(importOnnxModel(testDataFile(name)));
}

// A reference preset; `layers` > 0 overrides its depth.
inline FoldedModel foldSynthPreset(const char* name, std::int64_t layers = 0)
{
    const SynthPreset* preset = findSynthPreset(name);
    if (!preset)
        throw std::runtime_error(std::string("no synth preset ") + name);
    ModelSpec spec = preset->spec;
    if (layers > 0)
        spec.layers = layers;
    return foldModel(synthesizeModel(spec, name));
}

inline const std::filesystem::path& clusterPresetDir()
{
    static const std::filesystem::path dir =
        std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "resources" / "clusters";
    return dir;
}

inline Cluster testCluster(const char* preset)
{
    return loadClusterPreset(clusterPresetDir(), preset);
}

// A training step of `batch` sequences of `sequence` tokens, other settings default.
inline Workload workload(std::int64_t batch, std::int64_t sequence)
{
    Workload w;
    w.batch = batch;
    w.sequence = sequence;
    return w;
}

}  // namespace tapestry::test
