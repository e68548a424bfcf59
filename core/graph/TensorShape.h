#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tapestry {

// One dimension: a known extent, a named symbol ("batch", "sequence") that a workload
// binds later, or unknown. Invariant: at most one of value >= 0 and !symbol.empty().
struct Dimension {
    std::int64_t value = -1;
    std::string symbol;

    [[nodiscard]] static Dimension known(std::int64_t extent) { return {extent, {}}; }
    [[nodiscard]] static Dimension symbolic(std::string name) { return {-1, std::move(name)}; }

    [[nodiscard]] bool isKnown() const { return value >= 0; }
    [[nodiscard]] bool isSymbolic() const { return value < 0 && !symbol.empty(); }
    bool operator==(const Dimension&) const = default;
};

// A tensor's shape; the rank itself may be unknown (no shape information at all).
class TensorShape {
public:
    TensorShape() = default;
    explicit TensorShape(std::vector<Dimension> dims) : dims_(std::move(dims)), rankKnown_(true) {}
    [[nodiscard]] static TensorShape ofExtents(const std::vector<std::int64_t>& extents);

    [[nodiscard]] bool isRankKnown() const { return rankKnown_; }
    [[nodiscard]] std::size_t rank() const { return dims_.size(); }
    [[nodiscard]] const std::vector<Dimension>& dims() const { return dims_; }
    [[nodiscard]] const Dimension& dim(std::size_t axis) const { return dims_.at(axis); }
    // Every extent known (no symbols, no unknowns).
    [[nodiscard]] bool isStatic() const;
    // Product of the extents when static.
    [[nodiscard]] std::optional<std::int64_t> elementCount() const;

    // "[batch, 128, 4096]", or "?" when the rank is unknown.
    [[nodiscard]] std::string toString() const;
    bool operator==(const TensorShape&) const = default;

private:
    std::vector<Dimension> dims_;
    bool rankKnown_ = false;
};

}  // namespace tapestry
