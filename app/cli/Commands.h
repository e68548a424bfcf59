#pragma once

#include "cli/CommandLine.h"

namespace tapestry::cli {

// Each declares its command as a subcommand of `app`: its options, their help, and how
// it runs. Errors propagate as tapestry::Error; main() prints them and exits non-zero.
Command declareInspect(CLI::App& app);
Command declareFold(CLI::App& app);
// `argv0` locates the cluster presets installed beside the executable.
Command declareEvaluate(CLI::App& app, const char* argv0);
Command declareSearch(CLI::App& app, const char* argv0);
Command declareSolve(CLI::App& app);
// list, show, diff, tag, delete or export plans of the SQLite history.
Command declareHistory(CLI::App& app);
Command declareSynth(CLI::App& app);
Command declareExport(CLI::App& app, const char* argv0);
Command declareImportPlan(CLI::App& app, const char* argv0);
Command declareValidate(CLI::App& app, const char* argv0);
Command declareCalibrate(CLI::App& app, const char* argv0);

}  // namespace tapestry::cli
