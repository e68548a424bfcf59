#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tapestry {

// A parsed JSON document node. Objects keep their members in file order (so errors and
// round trips follow the file); JsonReader guarantees that keys within one object are
// unique. Numbers are doubles, exact for integers up to 2^53.
class JsonValue {
public:
    using Array = std::vector<JsonValue>;
    using Object = std::vector<std::pair<std::string, JsonValue>>;

    JsonValue() = default;  // null
    explicit JsonValue(bool flag) : data_(flag) {}
    explicit JsonValue(double number) : data_(number) {}
    explicit JsonValue(std::string text) : data_(std::move(text)) {}
    explicit JsonValue(Array items) : data_(std::move(items)) {}
    explicit JsonValue(Object members) : data_(std::move(members)) {}

    [[nodiscard]] bool isNull() const { return std::holds_alternative<std::monostate>(data_); }
    [[nodiscard]] bool isBool() const { return std::holds_alternative<bool>(data_); }
    [[nodiscard]] bool isNumber() const { return std::holds_alternative<double>(data_); }
    [[nodiscard]] bool isString() const { return std::holds_alternative<std::string>(data_); }
    [[nodiscard]] bool isArray() const { return std::holds_alternative<Array>(data_); }
    [[nodiscard]] bool isObject() const { return std::holds_alternative<Object>(data_); }

    // Accessors require the matching kind (std::bad_variant_access otherwise).
    [[nodiscard]] bool asBool() const { return std::get<bool>(data_); }
    [[nodiscard]] double asNumber() const { return std::get<double>(data_); }
    [[nodiscard]] const std::string& asString() const { return std::get<std::string>(data_); }
    [[nodiscard]] const Array& asArray() const { return std::get<Array>(data_); }
    [[nodiscard]] const Object& asObject() const { return std::get<Object>(data_); }

    // The member named `key` of an object, or nullptr when absent or not an object.
    [[nodiscard]] const JsonValue* find(std::string_view key) const;

    // "null", "boolean", "number", "string", "array" or "object", for error messages.
    [[nodiscard]] const char* kindName() const;

private:
    std::variant<std::monostate, bool, double, std::string, Array, Object> data_;
};

}  // namespace tapestry
