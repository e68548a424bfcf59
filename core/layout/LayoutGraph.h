#pragma once

#include <string>
#include <vector>

namespace tapestry {

// A drawing-neutral description of a graph view: what Graphviz lays out and what DOT
// export writes. Sizes are in points (1/72 inch).
struct LayoutNode {
    std::string label;
    std::string tooltip;
    std::string fillColor = "#ffffff";  // "#rrggbb"
    double widthPoints = 0;    // 0: let the layout size it from the label
    double heightPoints = 0;
    bool emphasized = false;   // drawn with a double border (a folded family)
    int cluster = -1;          // index into LayoutGraph::clusters, or -1
};

struct LayoutEdge {
    std::size_t from = 0;
    std::size_t to = 0;
};

struct LayoutCluster {
    std::string label;
};

struct LayoutGraph {
    std::string name = "view";
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    std::vector<LayoutCluster> clusters;
};

// The graph as Graphviz DOT text: top-to-bottom, rounded filled boxes, clusters as
// subgraphs. Node names are n0, n1, ... in LayoutGraph order.
[[nodiscard]] std::string toDot(const LayoutGraph& graph);

}  // namespace tapestry
