#include "base/JsonValue.h"

#include <cmath>

namespace tapestry {

const JsonValue* JsonValue::find(std::string_view key) const
{
    if (!isObject())
        return nullptr;
    for (const auto& [name, value] : asObject()) {
        if (name == key)
            return &value;
    }
    return nullptr;
}

double JsonValue::asNumber() const
{
    if (const auto* integer = std::get_if<std::int64_t>(&data_))
        return static_cast<double>(*integer);
    return std::get<double>(data_);
}

std::optional<std::int64_t> JsonValue::asInteger() const
{
    if (const auto* integer = std::get_if<std::int64_t>(&data_))
        return *integer;
    const double number = std::get<double>(data_);
    // 2^63 is exact as a double; anything at or above it does not fit.
    if (number != std::floor(number) || number < -9223372036854775808.0 || number >= 9223372036854775808.0)
        return std::nullopt;
    return static_cast<std::int64_t>(number);
}

const char* JsonValue::kindName() const
{
    if (isNull())
        return "null";
    if (isBool())
        return "boolean";
    if (isNumber())
        return "number";
    if (isString())
        return "string";
    return isArray() ? "array" : "object";
}

}  // namespace tapestry
