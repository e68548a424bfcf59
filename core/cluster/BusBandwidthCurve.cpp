#include "cluster/BusBandwidthCurve.h"

#include "base/Error.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace tapestry {

BusBandwidthCurve::BusBandwidthCurve(std::vector<Point> points) : points_(std::move(points))
{
    if (points_.empty())
        throw Error(ErrorCode::InvalidArgument, {}, "a bus bandwidth curve needs at least one point");
    std::sort(points_.begin(), points_.end(),
              [](const Point& a, const Point& b) { return a.sizeBytes < b.sizeBytes; });
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const Point& p = points_[i];
        if (!(p.sizeBytes > 0) || !(p.busBytesPerSecond > 0))
            throw Error(ErrorCode::InvalidArgument, {},
                        "bus bandwidth curve points need a positive size and bandwidth");
        if (i > 0 && points_[i - 1].sizeBytes == p.sizeBytes)
            throw Error(ErrorCode::InvalidArgument, {},
                        "bus bandwidth curve has two points for size " + std::to_string(p.sizeBytes));
    }
}

double BusBandwidthCurve::busBytesPerSecondAt(double sizeBytes) const
{
    assert(!points_.empty());
    if (sizeBytes <= points_.front().sizeBytes)
        return points_.front().busBytesPerSecond;
    if (sizeBytes >= points_.back().sizeBytes)
        return points_.back().busBytesPerSecond;
    const auto upper = std::upper_bound(points_.begin(), points_.end(), sizeBytes,
                                        [](double size, const Point& p) { return size < p.sizeBytes; });
    const Point& hi = *upper;
    const Point& lo = *(upper - 1);
    const double t = std::log(sizeBytes / lo.sizeBytes) / std::log(hi.sizeBytes / lo.sizeBytes);
    return lo.busBytesPerSecond + t * (hi.busBytesPerSecond - lo.busBytesPerSecond);
}

}  // namespace tapestry
