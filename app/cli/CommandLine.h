#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry::cli {

// The arguments after the command name, split into positionals and --options.
// "--name value" and "--name=value" are both accepted; flags take no value; "-o" is
// short for "--output".
class CommandLine {
public:
    // `flags`: option names that take no value (e.g. "json"). Throws tapestry::Error
    // (InvalidArgument) for an option missing its value.
    CommandLine(const std::vector<std::string>& args, const std::vector<std::string_view>& flags);

    [[nodiscard]] const std::vector<std::string>& positionals() const { return positionals_; }
    [[nodiscard]] bool hasFlag(std::string_view name) const;
    [[nodiscard]] std::optional<std::string> option(std::string_view name) const;
    // Every value given for a repeatable option (--pin a --pin b).
    [[nodiscard]] std::vector<std::string> options(std::string_view name) const;
    // Names given that are not in `known`; each is reported as an unknown option.
    void rejectUnknown(const std::vector<std::string_view>& known) const;

private:
    std::vector<std::string> positionals_;
    std::vector<std::pair<std::string, std::string>> options_;
    std::vector<std::string> flags_;
};

}  // namespace tapestry::cli
