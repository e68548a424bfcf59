#pragma once

#include "history/HistoryRecords.h"
#include "history/HistoryStore.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tapestry {
struct Cluster;
struct FoldedModel;
}

namespace tapestry::cli {

// --history FILE and, for the commands that record, --no-history.
struct HistoryOptions {
    std::string file;
    bool off = false;
};

void addHistoryOptions(CLI::App& command, HistoryOptions& options, bool recording);

// The history file: --history FILE, else defaultHistoryPath().
[[nodiscard]] std::filesystem::path historyPathFromOptions(const HistoryOptions& options);

// A planning command's run in the history (--history FILE, or the default; nothing with
// --no-history). The history is a by-product: when it cannot be written the command
// still succeeds and says so on stderr. A run not finished (the command threw) is
// recorded as failed.
class HistoryRecording {
public:
    HistoryRecording(const HistoryOptions& options, const FoldedModel& model, const Cluster& cluster,
                     const RunSettings& settings);
    ~HistoryRecording();
    HistoryRecording(const HistoryRecording&) = delete;
    HistoryRecording& operator=(const HistoryRecording&) = delete;

    // Records the run's end and `plans()`, built only when recording (a plan's record
    // writes it out whole, for every node).
    void finish(RunStatus status, const std::string& message, const std::function<std::vector<PlanRecord>()>& plans);

private:
    void warn(const std::exception& error);

    std::unique_ptr<HistoryStore> store_;
    RunId run_;
    std::string command_;
};

}  // namespace tapestry::cli
