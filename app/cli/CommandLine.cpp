#include "cli/CommandLine.h"

#include "base/Error.h"
#include "cluster/MeshText.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace tapestry::cli {

namespace {

std::string rangeText(std::int64_t min, std::int64_t max)
{
    if (max == std::numeric_limits<std::int64_t>::max())
        return min == 1 ? "a positive whole number" : "a whole number >= " + std::to_string(min);
    return "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
}

// "--name N", "-o FILE", "FILE" (a positional), "--json" (a flag).
std::string optionUsage(const CLI::Option& option)
{
    if (option.get_positional())
        return option.get_name();
    const std::string name = option.get_snames().empty() ? "--" + option.get_lnames().front()
                                                         : "-" + option.get_snames().front();
    if (option.get_expected_max() == 0)
        return name;
    const std::string value = option.get_type_name();
    const bool repeatable = option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
    return name + " " + (value.empty() ? "VALUE" : value) + (repeatable ? " ..." : "");
}

bool isHelp(const CLI::App& app, const CLI::Option* option)
{
    return option == app.get_help_ptr() || option == app.get_help_all_ptr();
}

// The words of a synopsis: the command's name, then each option's usage; a line
// breaks between them, never inside one.
using Synopsis = std::vector<std::string>;

Synopsis commandSynopsis(const CLI::App& command, const std::string& prefix)
{
    Synopsis items = {prefix + command.get_name()};
    for (const CLI::Option* option : command.get_options()) {
        if (isHelp(command, option))
            continue;
        const std::string usage = optionUsage(*option);
        items.push_back(option->get_required() ? usage : "[" + usage + "]");
    }
    return items;
}

// The synopsis of a command, one per action for a command with actions (history).
std::vector<Synopsis> synopses(const CLI::App& command)
{
    const std::vector<const CLI::App*> actions = command.get_subcommands({});
    if (actions.empty())
        return {commandSynopsis(command, "")};
    std::vector<Synopsis> lines;
    for (const CLI::App* action : actions)
        lines.push_back(commandSynopsis(*action, command.get_name() + " "));
    return lines;
}

// `words` broken into lines of at most `width` characters; the first starts with
// `indent`, the others with `continuation`.
std::string wrapped(const std::vector<std::string>& words, const std::string& indent, const std::string& continuation,
                    std::size_t width)
{
    std::string out;
    std::string line;
    const std::string* lineIndent = &indent;
    for (const std::string& word : words) {
        if (!line.empty() && lineIndent->size() + line.size() + 1 + word.size() > width) {
            out += *lineIndent + line + "\n";
            line.clear();
            lineIndent = &continuation;
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty())
        out += *lineIndent + line + "\n";
    return out;
}

std::vector<std::string> wordsOf(const std::string& text)
{
    std::istringstream stream(text);
    std::vector<std::string> words;
    for (std::string word; stream >> word;)
        words.push_back(word);
    return words;
}

// "tapestry-cli history " for the history's actions.
std::string commandPath(const CLI::App& app)
{
    std::string path;
    for (const CLI::App* up = app.get_parent(); up; up = up->get_parent())
        path = up->get_name() + " " + path;
    return path;
}

}  // namespace

CLI::Validator wholeNumber(std::int64_t min, std::int64_t max)
{
    return CLI::Validator(
        [min, max](std::string& text) {
            std::int64_t value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max)
                return "needs " + rangeText(min, max) + ", not '" + text + "'";
            return std::string();
        },
        "");
}

CLI::Validator positiveNumber(double max)
{
    return CLI::Validator(
        [max](std::string& text) {
            double value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec != std::errc{} || end != text.data() + text.size() || !(value > 0) || !(value <= max)) {
                std::ostringstream limit;
                limit << max;
                return "needs a positive number up to " + limit.str() + ", not '" + text + "'";
            }
            return std::string();
        },
        "");
}

CLI::Validator meshShape(bool allowAuto)
{
    return CLI::Validator(
        [allowAuto](std::string& text) {
            if (allowAuto && text == "auto")
                return std::string();
            try {
                (void)parseMeshText(text);
            } catch (const Error& error) {
                return std::string("needs sizes AxB[xC] or named axes NAME=SIZE,...") + (allowAuto ? " or auto" : "") +
                       ": " + error.message();
            }
            return std::string();
        },
        "");
}

CLI::Validator oneOf(std::vector<std::string> names)
{
    return CLI::Validator(
        [names](std::string& text) {
            return std::find(names.begin(), names.end(), text) != names.end() ? std::string() : choiceError(text, names);
        },
        "");
}

std::string choiceError(const std::string& value, const std::vector<std::string>& names)
{
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + names[i];
    return "needs " + list + ", not '" + value + "'";
}

std::string UsageFormatter::make_usage(const CLI::App* app, std::string name) const
{
    if (!app->get_parent())
        return "usage: " + name + " COMMAND [ARGS]\n";
    std::string text;
    for (Synopsis synopsis : synopses(*app)) {
        synopsis.front() = commandPath(*app) + synopsis.front();
        text += wrapped(synopsis, text.empty() ? "usage: " : "       ", "           ", 100);
    }
    return text;
}

std::string UsageFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const
{
    if (app->get_parent())
        return CLI::Formatter::make_help(app, std::move(name), mode);
    std::string text = make_usage(app, app->get_name()) + "\ncommands:\n";
    for (const CLI::App* command : app->get_subcommands({})) {
        for (const Synopsis& synopsis : synopses(*command))
            text += wrapped(synopsis, "  ", "           ", 100);
        text += wrapped(wordsOf(command->get_description()), "      ", "      ", 86);
    }
    return text + "\n" + app->get_footer() + "\n";
}

}  // namespace tapestry::cli
