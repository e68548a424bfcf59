#pragma once

#include <string>
#include <vector>

namespace tapestry::cli {

// Each command takes the arguments after its name and returns the process exit code.
// Errors propagate as tapestry::Error; main() prints them and exits non-zero.
int runInspect(const std::vector<std::string>& args);
int runFold(const std::vector<std::string>& args);
// `argv0` locates the cluster presets installed beside the executable.
int runEvaluate(const std::vector<std::string>& args, const char* argv0);
int runSearch(const std::vector<std::string>& args, const char* argv0);
// list, show, diff, tag, delete or export plans of the SQLite history.
int runHistory(const std::vector<std::string>& args);
int runSynth(const std::vector<std::string>& args);
int runSolve(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runImportPlan(const std::vector<std::string>& args);

}  // namespace tapestry::cli
