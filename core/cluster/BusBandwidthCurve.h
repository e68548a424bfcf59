#pragma once

#include <vector>

namespace tapestry {

// A measured message size -> bus bandwidth curve for one collective on one link class
// (nccl-tests' busbw, which is independent of the group size for ring algorithms).
// Invariant: points are sorted by strictly increasing size, sizes and bandwidths > 0.
class BusBandwidthCurve {
public:
    struct Point {
        double sizeBytes = 0;
        double busBytesPerSecond = 0;
        bool operator==(const Point&) const = default;
    };

    BusBandwidthCurve() = default;
    // Sorts the points. Throws Error(InvalidArgument) on an empty list, a size or
    // bandwidth that is not positive, or two points with the same size.
    explicit BusBandwidthCurve(std::vector<Point> points);

    [[nodiscard]] bool isEmpty() const { return points_.empty(); }
    [[nodiscard]] const std::vector<Point>& points() const { return points_; }

    // Bus bandwidth at `sizeBytes`: linear in log(size) between the two neighbouring
    // points, clamped to the first / last point outside the measured range.
    // Requires a non-empty curve.
    [[nodiscard]] double busBytesPerSecondAt(double sizeBytes) const;

    bool operator==(const BusBandwidthCurve&) const = default;

private:
    std::vector<Point> points_;
};

}  // namespace tapestry
