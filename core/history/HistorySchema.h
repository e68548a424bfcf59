#pragma once

#include <vector>

namespace tapestry {

class SqliteConnection;

// One step of the history schema: the SQL that takes a database from version - 1 to
// `version` (PRAGMA user_version). Steps are only ever appended, never edited, so any
// older database can be brought forward.
struct HistoryMigration {
    int version = 0;
    const char* sql = nullptr;
};

[[nodiscard]] const std::vector<HistoryMigration>& historyMigrations();

// The version this code reads and writes: the last migration's.
[[nodiscard]] int historySchemaVersion();
// The oldest version this code reads without migrating it first, which a read-only file
// cannot be: version 3 only added what writers use, and a run read from a file before
// version 4 has no FP8 recipe (HistoryStore reads 'none' for it).
[[nodiscard]] int oldestReadableSchemaVersion();
// The first version whose runs keep their FP8 recipe.
[[nodiscard]] int fp8RecipeSchemaVersion();
// The first version whose runs keep their whole workload and target stack.
[[nodiscard]] int runWorkloadSchemaVersion();

// The database's PRAGMA user_version (0 for a new, empty file). Reading it is the first
// access to the file, so a file that is not a database fails here (HistoryCorrupt),
// before any write. Throws HistoryTooNew for a database written by a newer Tapestry.
[[nodiscard]] int storedSchemaVersion(SqliteConnection& connection);

// Applies every missing migration in one transaction (all or none) and sets
// user_version. A database from a newer Tapestry is left untouched (HistoryTooNew).
void migrateHistory(SqliteConnection& connection);

}  // namespace tapestry
