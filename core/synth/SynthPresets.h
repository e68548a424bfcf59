#pragma once

#include "synth/ModelSpec.h"

#include <span>
#include <string_view>

namespace tapestry {

struct SynthPreset {
    std::string_view name;         // "gpt3-175b"
    std::string_view description;  // "GPT-3 175B (Brown et al. 2020)"
    ModelSpec spec;
};

// Well-known architectures at their published sizes, in a stable order.
[[nodiscard]] std::span<const SynthPreset> synthPresets();
// Null when no preset has that name.
[[nodiscard]] const SynthPreset* findSynthPreset(std::string_view name);

}  // namespace tapestry
