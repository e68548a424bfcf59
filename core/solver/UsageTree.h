#pragma once

#include <cstdint>
#include <vector>

namespace tapestry {

// Memory usage over time points 0 .. size-1: add to a half-open range, ask the maximum
// over a range and where it is. Segment tree with lazy adds, O(log size) per call.
class UsageTree {
public:
    explicit UsageTree(std::int64_t size);

    void add(std::int64_t lo, std::int64_t hi, std::int64_t amount);
    // Maximum over [lo, hi) (lo < hi) and its earliest time point.
    [[nodiscard]] std::int64_t max(std::int64_t lo, std::int64_t hi) const;
    [[nodiscard]] std::int64_t argMax(std::int64_t lo, std::int64_t hi) const;

private:
    void add(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo, std::int64_t hi, std::int64_t amount);
    [[nodiscard]] std::int64_t max(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo,
                                   std::int64_t hi) const;
    [[nodiscard]] std::int64_t argMax(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo,
                                      std::int64_t hi, std::int64_t target, std::int64_t above) const;

    std::int64_t size_;
    // maxima_[n] includes pending_[n] (added to the whole subtree but not pushed down).
    std::vector<std::int64_t> maxima_;
    std::vector<std::int64_t> pending_;
};

}  // namespace tapestry
