#include "cli/HistoryRecording.h"

#include "cli/ModelContext.h"

#include "base/Error.h"
#include "history/HistoryPath.h"
#include "history/RecordsOf.h"

#include <cstdio>

namespace tapestry::cli {

void addHistoryOptions(CLI::App& command, HistoryOptions& options, bool recording)
{
    command.add_option("--history", options.file,
                       "the history database (default $TAPESTRY_HISTORY or $XDG_DATA_HOME/Tapestry/history.sqlite)")
        ->type_name("FILE");
    if (recording)
        command.add_flag("--no-history", options.off, "record nothing in the history");
}

std::filesystem::path historyPathFromOptions(const HistoryOptions& options)
{
    if (!options.file.empty())
        return options.file;
    const std::filesystem::path path = defaultHistoryPath();
    if (path.empty())
        throw Error(ErrorCode::InvalidArgument, {}, "no history file: set HOME or TAPESTRY_HISTORY, or give --history FILE");
    return path;
}

HistoryRecording::HistoryRecording(const HistoryOptions& options, const FoldedModel& model, const Cluster& cluster,
                                   const RunSettings& settings)
    : command_(settings.command)
{
    if (options.off)
        return;
    try {
        store_ = std::make_unique<HistoryStore>(historyPathFromOptions(options));
        const ModelRecord modelRecord = modelRecordOf(model.graph());
        const ClusterRecord clusterRecord = clusterRecordOf(cluster);
        run_ = store_->beginRun(modelRecord, clusterRecord, settings);
        const std::size_t stale = store_->markStalePlans(
            {modelRecord.path, modelRecord.fingerprint, clusterRecord.name, clusterRecord.description}).size();
        if (stale > 0)
            std::fprintf(stderr,
                         "tapestry-cli %s: note: %zu plan(s) in the history were made for an earlier version of this "
                         "model or cluster (stale; see `tapestry-cli history list`)\n",
                         command_.c_str(), stale);
    } catch (const std::exception& error) {
        warn(error);
    }
}

HistoryRecording::~HistoryRecording()
{
    if (!store_ || !run_.isValid())
        return;
    try {
        (void)store_->finishRun(run_, RunStatus::Failed, "the command stopped with an error", {});
    } catch (const std::exception&) {
        // Nothing more to say: the command's own error is already on its way.
    }
}

void HistoryRecording::finish(RunStatus status, const std::string& message,
                              const std::function<std::vector<PlanRecord>()>& plans)
{
    if (!store_ || !run_.isValid())
        return;
    try {
        const std::vector<PlanRecordId> ids = store_->finishRun(run_, status, message, plans());
        run_ = RunId();
        std::string list;
        for (const PlanRecordId id : ids)
            list += (list.empty() ? "" : ", ") + std::to_string(id.value());
        std::fprintf(stderr, "recorded in %s: plan(s) %s\n", store_->file().string().c_str(), list.c_str());
    } catch (const std::exception& error) {
        run_ = RunId();
        warn(error);
    }
}

void HistoryRecording::warn(const std::exception& error)
{
    std::fprintf(stderr, "tapestry-cli %s: warning: not recorded in the history: %s\n", command_.c_str(), error.what());
    store_.reset();
}

}  // namespace tapestry::cli
