#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

namespace tapestry {

// An index into one kind of table, typed so that an OpId cannot be passed where a
// TensorId is expected. The default-constructed id is invalid.
template <class Tag>
class StrongId {
public:
    using ValueType = std::uint32_t;
    static constexpr ValueType kInvalid = std::numeric_limits<ValueType>::max();

    constexpr StrongId() = default;
    constexpr explicit StrongId(ValueType value) : value_(value) {}
    constexpr explicit StrongId(std::size_t index) : value_(static_cast<ValueType>(index)) {}

    [[nodiscard]] constexpr bool isValid() const { return value_ != kInvalid; }
    [[nodiscard]] constexpr ValueType value() const { return value_; }
    [[nodiscard]] constexpr std::size_t index() const { return value_; }

    constexpr auto operator<=>(const StrongId&) const = default;

private:
    ValueType value_ = kInvalid;
};

}  // namespace tapestry

template <class Tag>
struct std::hash<tapestry::StrongId<Tag>> {
    std::size_t operator()(tapestry::StrongId<Tag> id) const noexcept
    {
        return std::hash<std::uint32_t>{}(id.value());
    }
};
