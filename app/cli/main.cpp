// tapestry-cli: every step of Tapestry, headless.
#include "cli/Commands.h"

#include "base/Error.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

constexpr const char* kExitStatus = "exit status: 0 on success, 1 when the input is bad, 2 on a usage error";

// The command the arguments chose, innermost first (history show before history).
const CLI::App* chosenCommand(const CLI::App& app)
{
    const CLI::App* chosen = &app;
    while (true) {
        const std::vector<CLI::App*> parsed = chosen->get_subcommands();
        if (parsed.empty())
            return chosen;
        chosen = parsed.front();
    }
}

std::string commandName(const CLI::App& command)
{
    std::string name;
    for (const CLI::App* app = &command; app; app = app->get_parent())
        name = app->get_name() + (name.empty() ? "" : " ") + name;
    return name;
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace tapestry::cli;
    CLI::App app("", "tapestry-cli");
    app.formatter(std::make_shared<UsageFormatter>());
    app.footer(kExitStatus);
    app.require_subcommand(1);
    // An option given twice takes its last value, as the shell's habit of appending flags expects.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    const std::vector<Command> commands = {
        declareInspect(app),          declareFold(app),  declareEvaluate(app, argv[0]),
        declareSolve(app),            declareSearch(app, argv[0]), declareHistory(app),
        declareSynth(app),            declareExport(app, argv[0]), declareImportPlan(app, argv[0]),
        declareValidate(app, argv[0]),      declareCalibrate(app, argv[0]),
    };

    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "help")
        args.front() = "--help";
    if (args.empty()) {
        std::fputs(app.help().c_str(), stderr);
        return 2;
    }
    const std::vector<CLI::App*> known = app.get_subcommands({});
    const bool isCommand = std::any_of(known.begin(), known.end(), [&](const CLI::App* c) { return c->get_name() == args.front(); });
    if (args.front().front() != '-' && !isCommand) {
        std::fprintf(stderr, "tapestry-cli: unknown command '%s'\n\n%s", args.front().c_str(), app.help().c_str());
        return 2;
    }
    std::reverse(args.begin(), args.end());
    try {
        app.parse(args);
    } catch (const CLI::CallForHelp&) {
        std::fputs(chosenCommand(app)->help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError& error) {
        const std::string name = commandName(*chosenCommand(app));
        std::fprintf(stderr, "%s: error: %s\n(`%s --help` shows the options)\n", name.c_str(), error.what(),
                     name.c_str());
        return 2;
    }

    const std::string name = commandName(*chosenCommand(app));
    try {
        for (const Command& command : commands) {
            if (command.app->parsed())
                return command.run();
        }
        return 2;
    } catch (const tapestry::Error& error) {
        std::fprintf(stderr, "%s: error: %s\n", name.c_str(), error.what());
        return error.code() == tapestry::ErrorCode::InvalidArgument ? 2 : 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: error: out of memory (the input is larger than this machine can hold)\n", name.c_str());
        return 1;
    } catch (const std::exception& error) {
        // Readers turn bad input into tapestry::Error; anything else is a defect of ours.
        std::fprintf(stderr, "%s: error: an unexpected failure inside Tapestry (%s); please report it with the input\n",
                     name.c_str(), error.what());
        return 1;
    }
}
