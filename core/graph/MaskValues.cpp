#include "graph/MaskValues.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace tapestry {

namespace {

template <typename T>
T load(std::span<const std::byte> bytes, std::size_t index)
{
    T value;
    std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
    return value;
}

// IEEE 754 binary16.
double halfToDouble(std::uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f;
    const int fraction = bits & 0x3ff;
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    if (exponent == 0x1f)
        return fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
    if (exponent == 0)
        return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(fraction + 1024, exponent - 25);
}

// The upper half of a binary32.
double bfloat16ToDouble(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

// Element `index` as a double, or nothing for a type this does not read.
std::optional<double> element(DataType dtype, std::span<const std::byte> bytes, std::size_t index)
{
    switch (dtype) {
    case DataType::Bool:
    case DataType::UInt8: return load<std::uint8_t>(bytes, index);
    case DataType::Int8: return load<std::int8_t>(bytes, index);
    case DataType::UInt16: return load<std::uint16_t>(bytes, index);
    case DataType::Int16: return load<std::int16_t>(bytes, index);
    case DataType::Int32: return load<std::int32_t>(bytes, index);
    case DataType::UInt32: return load<std::uint32_t>(bytes, index);
    case DataType::Int64: return static_cast<double>(load<std::int64_t>(bytes, index));
    case DataType::UInt64: return static_cast<double>(load<std::uint64_t>(bytes, index));
    case DataType::Float16: return halfToDouble(load<std::uint16_t>(bytes, index));
    case DataType::BFloat16: return bfloat16ToDouble(load<std::uint16_t>(bytes, index));
    case DataType::Float32: return load<float>(bytes, index);
    case DataType::Float64: return load<double>(bytes, index);
    default: return std::nullopt;
    }
}

}  // namespace

MaskValues maskValuesOf(DataType dtype, std::span<const std::int64_t> dims, std::span<const std::byte> bytes)
{
    const int bits = dataTypeBits(dtype);
    if (bits < 8)
        return MaskValues::Unknown;
    std::size_t count = 1;
    for (const std::int64_t d : dims) {
        // More elements than bytes cannot match (and would overflow the count).
        if (d < 0 || (d > 0 && count > bytes.size() / static_cast<std::size_t>(d)))
            return MaskValues::Unknown;
        count *= static_cast<std::size_t>(d);
    }
    if (count == 0 || bytes.size() != count * static_cast<std::size_t>(bits / 8) || !element(dtype, bytes, 0))
        return MaskValues::Unknown;
    const bool floating = isFloatingPoint(dtype);
    const bool matrix = dims.size() >= 2 && dims[dims.size() - 1] >= 2 && dims[dims.size() - 2] >= 2;
    const auto columns = matrix ? static_cast<std::size_t>(dims[dims.size() - 1]) : 1;
    const auto rows = matrix ? static_cast<std::size_t>(dims[dims.size() - 2]) : 1;
    bool masking = floating;
    bool keep = matrix && !floating;
    bool hide = keep;
    bool bias = matrix && floating;
    for (std::size_t index = 0; index < count && (masking || keep || hide || bias); ++index) {
        const double v = *element(dtype, bytes, index);
        const bool visible = index % columns <= (index / columns) % rows;
        masking = masking && v <= kMaskingBias;
        keep = keep && v == (visible ? 1.0 : 0.0);
        hide = hide && v == (visible ? 0.0 : 1.0);
        bias = bias && (visible ? v == 0.0 : v <= kMaskingBias);
    }
    if (keep)
        return MaskValues::CausalKeep;
    if (hide)
        return MaskValues::CausalHide;
    if (bias)
        return MaskValues::CausalBias;
    return masking ? MaskValues::Masking : MaskValues::Unknown;
}

}  // namespace tapestry
