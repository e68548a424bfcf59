#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// A small streaming JSON writer (pretty-printed, two-space indent) for reports such as
// `tapestry-cli inspect --json`. Misuse (a value where a key is due) is a programming
// error and caught by assertions in debug builds.
class JsonWriter {
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);

    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(double number);
    // The shortest text that reads back as `number` (0.6, not 0.59999999999999998): for
    // files that people read and edit by hand.
    JsonWriter& shortestValue(double number);
    JsonWriter& value(bool flag);
    JsonWriter& null();

    // The document so far; complete once every object and array is closed.
    [[nodiscard]] const std::string& text() const { return out_; }

private:
    struct Level {
        bool isObject;
        bool empty = true;
    };
    void beforeValue();
    void newline();
    void closeLevel(char bracket);

    std::string out_;
    std::vector<Level> levels_;
    bool afterKey_ = false;
};

[[nodiscard]] std::string jsonEscaped(std::string_view text);

}  // namespace tapestry
