#include "history/HistorySchema.h"

#include "base/Error.h"
#include "history/SqliteConnection.h"
#include "history/SqliteStatement.h"
#include "history/SqliteTransaction.h"

#include <string>

namespace tapestry {

namespace {

// Version 1: models, clusters with their meshes, runs and the plans they produced.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE models (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    path TEXT NOT NULL,
    op_count INTEGER NOT NULL,
    parameters INTEGER NOT NULL,
    producer TEXT NOT NULL,
    UNIQUE (fingerprint, path)
);
CREATE TABLE clusters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    UNIQUE (name, description)
);
CREATE TABLE meshes (
    id INTEGER PRIMARY KEY,
    cluster_id INTEGER NOT NULL REFERENCES clusters (id),
    shape TEXT NOT NULL,
    axis_names TEXT NOT NULL,
    UNIQUE (cluster_id, shape, axis_names)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    command TEXT NOT NULL,
    model_id INTEGER NOT NULL REFERENCES models (id),
    cluster_id INTEGER NOT NULL REFERENCES clusters (id),
    mode TEXT NOT NULL,
    batch INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    compute_type TEXT NOT NULL,
    optimizer TEXT NOT NULL,
    zero1 INTEGER NOT NULL,
    pins TEXT NOT NULL,
    memory_limit_bytes REAL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'cancelled', 'failed')),
    message TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL,
    finished_at REAL
);
CREATE TABLE plans (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    model_id INTEGER NOT NULL REFERENCES models (id),
    mesh_id INTEGER NOT NULL REFERENCES meshes (id),
    parent_id INTEGER REFERENCES plans (id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    origin TEXT NOT NULL,
    pins TEXT NOT NULL,
    plan_json TEXT NOT NULL,
    step_seconds REAL,
    compute_seconds REAL,
    communication_seconds REAL,
    memory_bytes REAL,
    hbm_bytes REAL,
    fits INTEGER,
    created_at REAL NOT NULL
);
CREATE INDEX plans_by_parent ON plans (parent_id);
CREATE INDEX plans_by_run ON plans (run_id);
)sql";

// Version 2: plans can go stale (their model or cluster changed) and carry tags and notes.
constexpr const char* kVersion2 = R"sql(
ALTER TABLE plans ADD COLUMN stale INTEGER NOT NULL DEFAULT 0;
CREATE TABLE plan_tags (
    plan_id INTEGER NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (plan_id, tag)
);
CREATE TABLE plan_notes (
    id INTEGER PRIMARY KEY,
    plan_id INTEGER NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX plan_notes_by_plan ON plan_notes (plan_id);
)sql";

// Version 3: a run whose process ended without finishing it is marked 'interrupted';
// `owner` (see RunOwner.h) tells a live run from such an orphan. SQLite cannot widen a
// CHECK constraint in place, so the table is rebuilt (foreign keys are off during
// migrations, so plans keep pointing at the same run ids).
constexpr const char* kVersion3 = R"sql(
CREATE TABLE runs_v3 (
    id INTEGER PRIMARY KEY,
    command TEXT NOT NULL,
    model_id INTEGER NOT NULL REFERENCES models (id),
    cluster_id INTEGER NOT NULL REFERENCES clusters (id),
    mode TEXT NOT NULL,
    batch INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    compute_type TEXT NOT NULL,
    optimizer TEXT NOT NULL,
    zero1 INTEGER NOT NULL,
    pins TEXT NOT NULL,
    memory_limit_bytes REAL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'cancelled', 'failed', 'interrupted')),
    message TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL,
    finished_at REAL,
    owner TEXT NOT NULL DEFAULT ''
);
INSERT INTO runs_v3 (id, command, model_id, cluster_id, mode, batch, sequence, compute_type, optimizer, zero1, pins,
                     memory_limit_bytes, status, message, started_at, finished_at)
    SELECT id, command, model_id, cluster_id, mode, batch, sequence, compute_type, optimizer, zero1, pins,
           memory_limit_bytes, status, message, started_at, finished_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v3 RENAME TO runs;
)sql";

// Version 4: the run's FP8 recipe ("none", "per-tensor", "mxfp8": Workload::fp8), which
// compute_type (bf16 under FP8 GEMMs) does not tell. Runs recorded before it had none.
constexpr const char* kVersion4 = R"sql(
ALTER TABLE runs ADD COLUMN fp8_recipe TEXT NOT NULL DEFAULT 'none';
)sql";

// Version 5: the run's whole workload as the plan files write it (workload_json: the
// micro-batch, recomputation, ZeRO implementation and replicas, reduce type, kernels and
// the rest that the columns above leave out) and the stack it was searched for (target:
// "megatron", "any", ...). Runs recorded before it keep '' in both and read as the
// columns above say, every other field at its default, as they always read.
constexpr const char* kVersion5 = R"sql(
ALTER TABLE runs ADD COLUMN workload_json TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN target TEXT NOT NULL DEFAULT '';
)sql";

Error tooNew(const SqliteConnection& connection, int version)
{
    return Error(ErrorCode::HistoryTooNew, connection.fileName(),
                 "has history schema version " + std::to_string(version) + ", newer than the version " +
                     std::to_string(historySchemaVersion()) + " this Tapestry knows; it was left untouched");
}

}  // namespace

const std::vector<HistoryMigration>& historyMigrations()
{
    static const std::vector<HistoryMigration> migrations = {{1, kVersion1}, {2, kVersion2}, {3, kVersion3},
                                                                   {4, kVersion4}, {5, kVersion5}};
    return migrations;
}

int historySchemaVersion()
{
    return historyMigrations().back().version;
}

int oldestReadableSchemaVersion()
{
    return 2;
}

int fp8RecipeSchemaVersion()
{
    return 4;
}

int runWorkloadSchemaVersion()
{
    return 5;
}

int storedSchemaVersion(SqliteConnection& connection)
{
    SqliteStatement query(connection, "PRAGMA user_version");
    const int version = query.step() ? static_cast<int>(query.integer(0)) : 0;
    if (version > historySchemaVersion())
        throw tooNew(connection, version);
    return version;
}

void migrateHistory(SqliteConnection& connection)
{
    // Rebuilding a table (version 3) must not cascade into the rows that refer to it;
    // the pragma has no effect inside a transaction, so it comes first.
    connection.exec("PRAGMA foreign_keys = OFF");
    SqliteTransaction transaction(connection);
    // Read again under the write lock: another process may have migrated meanwhile.
    const int version = storedSchemaVersion(connection);
    if (version == historySchemaVersion())
        return;
    if (version == 0) {
        SqliteStatement tables(connection, "SELECT count(*) FROM sqlite_schema");
        if (tables.step() && tables.integer(0) > 0)
            throw Error(ErrorCode::HistoryCorrupt, connection.fileName(),
                        "has tables but no history schema version (user_version 0): it is not a history Tapestry "
                        "wrote, or it is damaged; it was left untouched");
    }
    for (const HistoryMigration& migration : historyMigrations()) {
        if (migration.version <= version)
            continue;
        try {
            connection.exec(migration.sql);
        } catch (const Error& error) {
            // The migration's SQL fits every file Tapestry wrote at `version`; failing, it
            // met other tables (a damaged schema). The transaction undoes it all.
            if (error.code() != ErrorCode::WriteFailed)
                throw;
            throw Error(ErrorCode::HistoryCorrupt, connection.fileName(),
                        "is not a Tapestry history database or is damaged: its tables do not match schema version " +
                            std::to_string(version) + " (" + error.message() + "); it was left untouched");
        }
    }
    connection.exec("PRAGMA user_version = " + std::to_string(historySchemaVersion()));
    transaction.commit();
}

}  // namespace tapestry
