#pragma once

#include "cluster/DeviceMesh.h"

#include <string_view>
#include <vector>

namespace tapestry {

// Axes named as Tapestry names unnamed shapes: "d" for a 1-D mesh, "dp" and "tp" for a
// 2-D one (Megatron puts tensor parallelism on the last, fastest axis), "a0", "a1", ...
// beyond.
[[nodiscard]] std::vector<MeshAxis> namedMeshAxes(const std::vector<int>& shape);

// A mesh as the command line and the GUI write it: sizes "2x8" (named by namedMeshAxes)
// or named axes "pp=8,dp=2,tp=8" (the role names pp, dp, tp, cp and ep in any case,
// read as lower case). Throws Error(InvalidMesh) saying what is wrong: a size
// that is not a whole number from 1 to 2^20, an empty or repeated name, a mix of forms.
[[nodiscard]] std::vector<MeshAxis> parseMeshText(std::string_view text);

// "pp=8,dp=2,tp=8"
[[nodiscard]] std::string meshText(const std::vector<MeshAxis>& axes);

}  // namespace tapestry
