#include "base/JsonValue.h"

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

const char* JsonValue::kindName() const
{
    switch (data_.index()) {
    case 0: return "null";
    case 1: return "boolean";
    case 2: return "number";
    case 3: return "string";
    case 4: return "array";
    default: return "object";
    }
}

}  // namespace tapestry
