#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct sqlite3;

namespace tapestry {

class Error;

// One connection to a SQLite database file. Every failure becomes a tapestry::Error
// naming the file: HistoryCorrupt for a file that is not a database or is damaged,
// HistoryLocked when another writer held the lock past the busy timeout,
// HistoryReadOnly for a write to a read-only file or connection.
class SqliteConnection {
public:
    // Unchanging: a file nobody may write (no write permission at all); it is read as
    // SQLite's "immutable" database, without creating -wal/-shm files beside it, which
    // also works in a folder the user may not write.
    enum class Mode { ReadWrite, ReadOnly, Unchanging };

    // Opens (ReadWrite: creates) the file; nothing is read or written yet, so a corrupt
    // file is only reported by the first statement.
    SqliteConnection(const std::filesystem::path& file, Mode mode, int busyTimeoutMs);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    // Runs one or more statements that return no rows.
    void exec(std::string_view sql);

    // Puts the file in WAL mode, a property of the file that every later connection
    // keeps; a file already in WAL mode is left as it is. Switching a file still in
    // rollback mode takes its read lock and then its write lock in one statement, and
    // SQLite does not wait for a write lock while it holds the read lock (waiting could
    // deadlock): so while another connection holds the write lock (another process
    // checking its own migration of a new file) the switch is tried again until the
    // busy timeout has passed, then fails with HistoryLocked.
    void useWriteAheadLog();

    [[nodiscard]] bool isReadOnly() const;
    [[nodiscard]] bool inTransaction() const;
    [[nodiscard]] std::int64_t lastInsertRowId() const;
    [[nodiscard]] const std::string& fileName() const { return fileName_; }
    [[nodiscard]] sqlite3* handle() const { return db_; }

    // The Error for SQLite result `code` while doing `what`.
    [[nodiscard]] Error error(int code, std::string_view what) const;
    // The HistoryCorrupt Error a read of a damaged page gets, for damage found by `what`.
    [[nodiscard]] Error damage(std::string_view what) const;

    // From now on every write transaction throws `reason` (a damaged file is read, never
    // written); nullptr while writes are allowed.
    void refuseWrites(const Error& reason);
    [[nodiscard]] const Error* writeRefusal() const { return writeRefusal_.get(); }

private:
    [[nodiscard]] Error errorWithDetail(int code, const std::string& detail, std::string_view what) const;

    sqlite3* db_ = nullptr;
    std::string fileName_;
    int busyTimeoutMs_ = 0;
    std::unique_ptr<const Error> writeRefusal_;
};

}  // namespace tapestry
