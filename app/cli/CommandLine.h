#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tapestry::cli {

// tapestry-cli's command line is declared with CLI11: each command is a subcommand whose
// options are declared once, with their type, range and help; the usage text and the
// parse errors come from those declarations.

// A command: its options declared on `app`, bound to its own state; `run` is called
// after they are parsed and returns the exit status.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

// A whole number within [min, max], checked on the text before CLI11 converts it (its
// own conversion saturates on overflow: 18446744073709551615 would become INT64_MAX).
[[nodiscard]] CLI::Validator wholeNumber(std::int64_t min, std::int64_t max = std::numeric_limits<std::int64_t>::max());

// The longest time limit: a week, far below where deadlines overflow the clock.
constexpr double kMaxSeconds = 7 * 24 * 3600.0;

// A number > 0 and <= max.
[[nodiscard]] CLI::Validator positiveNumber(double max);

// A mesh shape AxB[xC...] of whole numbers within int's range (the product is checked
// against the cluster later); with `allowAuto`, also "auto".
[[nodiscard]] CLI::Validator meshShape(bool allowAuto);

// One of `names`, kept as text.
[[nodiscard]] CLI::Validator oneOf(std::vector<std::string> names);

// The error for a name that is not a choice, given the name.
using ChoiceRefusal = std::function<std::string(const std::string&)>;

// One of `names`, turned into the matching value of `T` (an enum or bool) so that the
// option can be bound to a `T` directly: --optimizer adam|sgd. Another name is refused with
// `refusal`'s text where a vocabulary has its own (the attention kernels'), else choiceError's.
template <typename T>
CLI::Option* addChoice(CLI::App& app, const std::string& name, T& target,
                       std::vector<std::pair<std::string, T>> choices, const std::string& help,
                       ChoiceRefusal refusal = {});

// The usage text: for the top level, every command's synopsis ("inspect FILE [--json]
// [--scope-depth N]", one per action of history) and description; for a command, its
// synopsis and each option with its help.
class UsageFormatter : public CLI::Formatter {
public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
};

// The error a choice gives for a name it does not know.
[[nodiscard]] std::string choiceError(const std::string& value, const std::vector<std::string>& names);

template <typename T>
CLI::Option* addChoice(CLI::App& app, const std::string& name, T& target,
                       std::vector<std::pair<std::string, T>> choices, const std::string& help,
                       ChoiceRefusal refusal)
{
    std::vector<std::string> names;
    for (const auto& choice : choices)
        names.push_back(choice.first);
    std::string typeName;
    for (const std::string& n : names)
        typeName += (typeName.empty() ? "" : "|") + n;
    // The validator rewrites the name to the value's number, which CLI11 then converts.
    CLI::Validator toValue(
        [choices, names, refusal](std::string& text) {
            for (const auto& [choiceName, value] : choices) {
                if (text == choiceName) {
                    if constexpr (std::is_enum_v<T>)
                        text = std::to_string(static_cast<std::underlying_type_t<T>>(value));
                    else
                        text = value ? "1" : "0";
                    return std::string();
                }
            }
            return refusal ? refusal(text) : choiceError(text, names);
        },
        "");
    return app.add_option(name, target, help)->transform(toValue)->type_name(typeName);
}

}  // namespace tapestry::cli
