#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tapestry {

// A parsed JSON document node. Objects keep their members in file order (so errors and
// round trips follow the file); JsonReader guarantees that keys within one object are
// unique. A number written as an integer that fits in 64 bits is kept exactly (costs
// above 2^53 stay exact); other numbers are doubles.
class JsonValue {
public:
    using Array = std::vector<JsonValue>;
    using Object = std::vector<std::pair<std::string, JsonValue>>;

    JsonValue() = default;  // null
    explicit JsonValue(bool flag) : data_(flag) {}
    explicit JsonValue(double number) : data_(number) {}
    explicit JsonValue(std::int64_t integer) : data_(integer) {}
    explicit JsonValue(std::string text) : data_(std::move(text)) {}
    explicit JsonValue(Array items) : data_(std::move(items)) {}
    explicit JsonValue(Object members) : data_(std::move(members)) {}

    [[nodiscard]] bool isNull() const { return std::holds_alternative<std::monostate>(data_); }
    [[nodiscard]] bool isBool() const { return std::holds_alternative<bool>(data_); }
    [[nodiscard]] bool isNumber() const
    {
        return std::holds_alternative<double>(data_) || std::holds_alternative<std::int64_t>(data_);
    }
    // A number written as a whole number (JSON's 8 or a Python int), not as 8.0 or 8e0.
    [[nodiscard]] bool isInteger() const { return std::holds_alternative<std::int64_t>(data_); }
    [[nodiscard]] bool isString() const { return std::holds_alternative<std::string>(data_); }
    [[nodiscard]] bool isArray() const { return std::holds_alternative<Array>(data_); }
    [[nodiscard]] bool isObject() const { return std::holds_alternative<Object>(data_); }

    // Accessors require the matching kind (std::bad_variant_access otherwise).
    [[nodiscard]] bool asBool() const { return std::get<bool>(data_); }
    // The number, rounded to a double when it is an integer beyond 2^53.
    [[nodiscard]] double asNumber() const;
    // The number exactly when it is a whole number within int64 (written as an integer,
    // or as a whole-valued decimal such as 1e3); nullopt otherwise. Requires a number.
    [[nodiscard]] std::optional<std::int64_t> asInteger() const;
    [[nodiscard]] const std::string& asString() const { return std::get<std::string>(data_); }
    [[nodiscard]] const Array& asArray() const { return std::get<Array>(data_); }
    [[nodiscard]] const Object& asObject() const { return std::get<Object>(data_); }

    // The member named `key` of an object, or nullptr when absent or not an object.
    [[nodiscard]] const JsonValue* find(std::string_view key) const;

    // "null", "boolean", "number", "string", "array" or "object", for error messages.
    [[nodiscard]] const char* kindName() const;

private:
    std::variant<std::monostate, bool, double, std::int64_t, std::string, Array, Object> data_;
};

}  // namespace tapestry
