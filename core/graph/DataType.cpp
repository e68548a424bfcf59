#include "graph/DataType.h"

namespace tapestry {

DataType dataTypeFromOnnx(int value)
{
    if (value < 0 || value > static_cast<int>(DataType::Int4))
        return DataType::Undefined;
    return static_cast<DataType>(value);
}

std::string_view dataTypeName(DataType type)
{
    switch (type) {
    case DataType::Undefined: return "undefined";
    case DataType::Float32: return "float32";
    case DataType::UInt8: return "uint8";
    case DataType::Int8: return "int8";
    case DataType::UInt16: return "uint16";
    case DataType::Int16: return "int16";
    case DataType::Int32: return "int32";
    case DataType::Int64: return "int64";
    case DataType::String: return "string";
    case DataType::Bool: return "bool";
    case DataType::Float16: return "float16";
    case DataType::Float64: return "float64";
    case DataType::UInt32: return "uint32";
    case DataType::UInt64: return "uint64";
    case DataType::Complex64: return "complex64";
    case DataType::Complex128: return "complex128";
    case DataType::BFloat16: return "bfloat16";
    case DataType::Float8E4M3FN: return "float8e4m3fn";
    case DataType::Float8E4M3FNUZ: return "float8e4m3fnuz";
    case DataType::Float8E5M2: return "float8e5m2";
    case DataType::Float8E5M2FNUZ: return "float8e5m2fnuz";
    case DataType::UInt4: return "uint4";
    case DataType::Int4: return "int4";
    }
    return "undefined";
}

int dataTypeBits(DataType type)
{
    switch (type) {
    case DataType::Undefined:
    case DataType::String: return 0;
    case DataType::UInt4:
    case DataType::Int4: return 4;
    case DataType::UInt8:
    case DataType::Int8:
    case DataType::Bool:
    case DataType::Float8E4M3FN:
    case DataType::Float8E4M3FNUZ:
    case DataType::Float8E5M2:
    case DataType::Float8E5M2FNUZ: return 8;
    case DataType::UInt16:
    case DataType::Int16:
    case DataType::Float16:
    case DataType::BFloat16: return 16;
    case DataType::Int32:
    case DataType::UInt32:
    case DataType::Float32: return 32;
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Float64:
    case DataType::Complex64: return 64;
    case DataType::Complex128: return 128;
    }
    return 0;
}

bool isFloatingPoint(DataType type)
{
    switch (type) {
    case DataType::Float32:
    case DataType::Float16:
    case DataType::Float64:
    case DataType::BFloat16:
    case DataType::Float8E4M3FN:
    case DataType::Float8E4M3FNUZ:
    case DataType::Float8E5M2:
    case DataType::Float8E5M2FNUZ: return true;
    default: return false;
    }
}

}  // namespace tapestry
