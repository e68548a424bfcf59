#pragma once

#include <cstdint>
#include <string_view>

namespace tapestry {

// Element types, numbered as ONNX's TensorProto.DataType so the importer maps 1:1.
enum class DataType : std::uint8_t {
    Undefined = 0,
    Float32 = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Float64 = 11,
    UInt32 = 12,
    UInt64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
    Float8E4M3FN = 17,
    Float8E4M3FNUZ = 18,
    Float8E5M2 = 19,
    Float8E5M2FNUZ = 20,
    UInt4 = 21,
    Int4 = 22,
};

// Known values only; anything else read from a file becomes Undefined.
[[nodiscard]] DataType dataTypeFromOnnx(int value);
[[nodiscard]] std::string_view dataTypeName(DataType type);
// Size of one element in bits (4-bit types are packed); 0 for Undefined and String.
[[nodiscard]] int dataTypeBits(DataType type);
[[nodiscard]] bool isFloatingPoint(DataType type);

}  // namespace tapestry
