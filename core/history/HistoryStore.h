#pragma once

#include "history/HistoryRecords.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

class SqliteConnection;

struct HistoryStoreOptions {
    bool readOnly = false;
    // How long a write waits for another process's (GUI, CLI) write to finish before
    // failing with HistoryLocked.
    int busyTimeoutMs = 5000;
};

// The history of runs and plans in one SQLite file, shared by the GUI and the CLI.
// Guarantees:
// - Opening brings an older database forward (all migrations in one transaction) and
//   switches it to WAL, so readers never block the writer and a crash mid-write
//   loses nothing committed.
// - Every write that touches more than one row is one transaction: it happens whole or
//   not at all, also when an exception interrupts it.
// - A file that is not a history database (HistoryCorrupt), one from a newer Tapestry
//   (HistoryTooNew), one locked past the busy timeout (HistoryLocked) or a read-only one
//   written to (HistoryReadOnly) is reported as an Error naming the file, and never
//   overwritten. A file without write permission is opened read-only: reads work and
//   no -wal/-shm files appear beside it. A file SQLite cannot open for reading in place
//   (WAL mode in a folder the process may not write) is read as it lies, or through a
//   private copy when a write-ahead log lies beside it (readingNote says which).
// - A file that fails SQLite's quick_check is still read, but every write is refused
//   with the HistoryCorrupt error a read of the damage gets.
// - Opening for writing marks `interrupted` the runs still `running` whose process has
//   ended (see RunOwner.h); runs of live processes (a GUI, another CLI) are left alone.
// - Unknown ids throw HistoryRecordNotFound; ids, mesh shapes and text fields the store
//   could not have written throw HistoryCorrupt.
class HistoryStore {
public:
    explicit HistoryStore(const std::filesystem::path& file, HistoryStoreOptions options = {});
    ~HistoryStore();
    HistoryStore(const HistoryStore&) = delete;
    HistoryStore& operator=(const HistoryStore&) = delete;

    [[nodiscard]] const std::filesystem::path& file() const { return file_; }
    [[nodiscard]] bool isReadOnly() const;
    // Empty, or how a file this process may not write (a WAL file in a folder it may not
    // write) is read: as it lies, or through a private copy that the store removes.
    [[nodiscard]] const std::string& readingNote() const { return readingNote_; }

    // Records the model and cluster (reusing equal rows) and a run with status Running.
    RunId beginRun(const ModelRecord& model, const ClusterRecord& cluster, const RunSettings& settings);
    // Sets the run's status and end time and adds its plans (model and cluster of the
    // run) in one transaction; returns the plans' ids in order.
    std::vector<PlanRecordId> finishRun(RunId run, RunStatus status, std::string_view message,
                                        const std::vector<PlanRecord>& plans);
    // A plan made outside a run (an edit, a re-cost).
    PlanRecordId addPlan(const ModelRecord& model, const ClusterRecord& cluster, const PlanRecord& plan);

    [[nodiscard]] RunRecord run(RunId id) const;
    [[nodiscard]] PlanRecord plan(PlanRecordId id) const;
    // Newest first.
    [[nodiscard]] std::vector<RunRecord> recentRuns(std::size_t limit) const;
    [[nodiscard]] std::vector<PlanRecord> recentPlans(std::size_t limit) const;
    [[nodiscard]] std::vector<PlanRecord> plansOfRun(RunId run) const;
    // The plan, its parent, the parent's parent, ... up to a plan without parent. A
    // chain that loops (a hand-edited file) throws HistoryCorrupt naming it.
    [[nodiscard]] std::vector<PlanRecordId> lineage(PlanRecordId id) const;
    [[nodiscard]] std::vector<PlanRecordId> children(PlanRecordId id) const;

    void tagPlan(PlanRecordId id, std::string_view tag);
    void addNote(PlanRecordId id, std::string_view text);
    // Deletes a plan with its tags and notes. A plan that others were derived from is
    // kept (HistoryPlanInUse, naming them) unless `force`; then they lose their parent.
    void deletePlan(PlanRecordId id, bool force);

    // Marks stale every plan made for `current.modelPath` with another fingerprint, or
    // for the cluster named `current.clusterName` with another description; returns all
    // plans that are stale for these inputs (marked now or before), oldest first.
    std::vector<PlanRecordId> markStalePlans(const CurrentInputs& current);

private:
    // True when the file is damaged: it is then only read.
    bool refuseWritesIfDamaged();
    void markInterruptedRuns();
    void requirePlan(PlanRecordId id) const;
    void openForReadingOnly(int busyTimeoutMs);

    std::filesystem::path file_;
    std::unique_ptr<SqliteConnection> db_;
    std::filesystem::path privateCopy_;  // the folder of a private copy, removed with the store
    std::string readingNote_;
    int schemaVersion_ = 0;  // of the file as this store reads it (a read-only one is not migrated)
};

}  // namespace tapestry
