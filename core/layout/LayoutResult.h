#pragma once

#include <vector>

namespace tapestry {

// A point in layout coordinates: points (1/72 inch), origin at the top left of the
// drawing, y growing downwards (Qt's convention, not Graphviz's).
struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct LayoutBox {
    double left = 0;
    double top = 0;
    double width = 0;
    double height = 0;

    [[nodiscard]] LayoutPoint center() const { return {left + width / 2, top + height / 2}; }
    [[nodiscard]] bool contains(LayoutPoint p, double tolerance = 0) const
    {
        return p.x >= left - tolerance && p.x <= left + width + tolerance && p.y >= top - tolerance &&
               p.y <= top + height + tolerance;
    }
};

struct NodePlacement {
    LayoutPoint center;
    double width = 0;
    double height = 0;

    [[nodiscard]] LayoutBox box() const { return {center.x - width / 2, center.y - height / 2, width, height}; }
};

// A routed edge: a cubic B-spline as Graphviz draws it, points[0] then three control
// points per segment; the arrow runs from the last point to `arrowTip`.
struct EdgeRoute {
    std::vector<LayoutPoint> points;
    bool hasArrow = false;
    LayoutPoint arrowTip;
};

// Where a LayoutGraph's parts go. Vectors are parallel to the LayoutGraph's nodes,
// edges and clusters. Invariants: every coordinate is finite; every node box, cluster
// box and edge point lies inside `bounds`, which starts at (0, 0).
struct LayoutResult {
    std::vector<NodePlacement> nodes;
    std::vector<EdgeRoute> edges;
    std::vector<LayoutBox> clusters;
    LayoutBox bounds;
};

}  // namespace tapestry
