#include "cli/CommandLine.h"

#include "base/Error.h"

#include <algorithm>

namespace tapestry::cli {

CommandLine::CommandLine(const std::vector<std::string>& args, const std::vector<std::string_view>& flags)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        // "-o FILE" is the one short option, as compilers spell it: --output.
        const std::string& arg = args[i] == "-o" ? std::string("--output") : args[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            positionals_.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        const std::size_t equals = name.find('=');
        if (equals != std::string::npos) {
            options_.emplace_back(name.substr(0, equals), name.substr(equals + 1));
            continue;
        }
        if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
            flags_.push_back(std::move(name));
            continue;
        }
        if (i + 1 >= args.size())
            throw Error(ErrorCode::InvalidArgument, {}, "option --" + name + " needs a value");
        options_.emplace_back(std::move(name), args[++i]);
    }
}

bool CommandLine::hasFlag(std::string_view name) const
{
    return std::find(flags_.begin(), flags_.end(), name) != flags_.end();
}

std::optional<std::string> CommandLine::option(std::string_view name) const
{
    for (auto it = options_.rbegin(); it != options_.rend(); ++it) {
        if (it->first == name)
            return it->second;
    }
    return std::nullopt;
}

std::vector<std::string> CommandLine::options(std::string_view name) const
{
    std::vector<std::string> values;
    for (const auto& [key, value] : options_) {
        if (key == name)
            values.push_back(value);
    }
    return values;
}

void CommandLine::rejectUnknown(const std::vector<std::string_view>& known) const
{
    auto isKnown = [&](std::string_view name) { return std::find(known.begin(), known.end(), name) != known.end(); };
    for (const std::string& flag : flags_) {
        if (!isKnown(flag))
            throw Error(ErrorCode::InvalidArgument, {}, "unknown option --" + flag);
    }
    for (const auto& option : options_) {
        if (!isKnown(option.first))
            throw Error(ErrorCode::InvalidArgument, {}, "unknown option --" + option.first);
    }
}

}  // namespace tapestry::cli
