#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace tapestry {

// Seconds per mesh axis, indexed by axis. A plan's evaluation keeps one per op (tens of
// thousands for a deep model, thousands of evaluations per search), and stage meshes
// have a few axes: up to kInline are kept inline, more spill to the heap.
class AxisSeconds {
public:
    static constexpr std::size_t kInline = 6;

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    // `count` axes, those added set to `value` (std::vector's resize).
    void resize(std::size_t count, double value = 0.0);
    // `count` axes, all set to `value` (std::vector's assign).
    void assign(std::size_t count, double value);
    [[nodiscard]] double& operator[](std::size_t axis) { return size_ <= kInline ? inline_[axis] : spilled_[axis]; }
    [[nodiscard]] double operator[](std::size_t axis) const
    {
        return size_ <= kInline ? inline_[axis] : spilled_[axis];
    }

private:
    std::array<double, kInline> inline_{};
    std::vector<double> spilled_;  // all axes, when there are more than kInline
    std::size_t size_ = 0;
};

}  // namespace tapestry
