#pragma once

#include "fold/FamilyTable.h"

#include <string>

namespace tapestry {

class Graph;

enum class PictureView : std::uint8_t {
    Coarse,  // one box per coarse node
    Folded,  // each family drawn once, "name ×N"
};

enum class PictureFormat : std::uint8_t { Dot, Svg, Png };

// A picture of the model's coarse or folded graph (core/layout's views): DOT text, or
// an SVG or PNG file's bytes rendered by Graphviz.
[[nodiscard]] std::string exportGraphPicture(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                                             PictureView view, PictureFormat format);

}  // namespace tapestry
