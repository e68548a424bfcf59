#include "history/SqliteConnection.h"

#include "base/Error.h"

#include <sqlite3.h>

#include <cctype>
#include <chrono>

namespace tapestry {

namespace {

// "file:" URI of `file` with the query that makes SQLite treat it as immutable; every
// byte outside the unreserved set is percent-encoded so that '?', '#' and '%' in a
// path keep their meaning as part of the name.
std::string immutableUri(const std::string& file)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const char c : file) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += c;
        } else {
            uri += '%';
            uri += kHex[byte >> 4];
            uri += kHex[byte & 0xf];
        }
    }
    return uri + "?immutable=1";
}

}  // namespace

SqliteConnection::SqliteConnection(const std::filesystem::path& file, Mode mode, int busyTimeoutMs)
    : fileName_(file.string()), busyTimeoutMs_(busyTimeoutMs)
{
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    std::string name = fileName_;
    if (mode == Mode::ReadOnly)
        flags = SQLITE_OPEN_READONLY;
    if (mode == Mode::Unchanging) {
        flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        name = immutableUri(fileName_);
    }
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        Error failure = error(rc, "opening the history database");
        sqlite3_close(db_);
        db_ = nullptr;
        throw failure;
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busyTimeoutMs);
}

SqliteConnection::~SqliteConnection()
{
    sqlite3_close(db_);
}

void SqliteConnection::exec(std::string_view sql)
{
    const std::string text(sql);
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        throw error(rc, "running '" + text.substr(0, 60) + "'");
}

void SqliteConnection::useWriteAheadLog()
{
    constexpr const char* kSwitch = "PRAGMA journal_mode = WAL";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busyTimeoutMs_);
    while (true) {
        const int rc = sqlite3_exec(db_, kSwitch, nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            return;
        if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
            throw error(rc, std::string("running '") + kSwitch + "'");
        sqlite3_sleep(1);
    }
}

bool SqliteConnection::isReadOnly() const
{
    return sqlite3_db_readonly(db_, "main") == 1;
}

bool SqliteConnection::inTransaction() const
{
    return sqlite3_get_autocommit(db_) == 0;
}

std::int64_t SqliteConnection::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(db_);
}

void SqliteConnection::refuseWrites(const Error& reason)
{
    writeRefusal_ = std::make_unique<const Error>(reason);
}

Error SqliteConnection::error(int code, std::string_view what) const
{
    return errorWithDetail(code, db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code), what);
}

Error SqliteConnection::damage(std::string_view what) const
{
    return errorWithDetail(SQLITE_CORRUPT, sqlite3_errstr(SQLITE_CORRUPT), what);
}

Error SqliteConnection::errorWithDetail(int code, const std::string& detail, std::string_view what) const
{
    const std::string message = detail + " (" + std::string(what) + ")";
    switch (code & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        return Error(ErrorCode::HistoryCorrupt, fileName_, "is not a Tapestry history database or is damaged: " + message);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return Error(ErrorCode::HistoryLocked, fileName_, "is locked by another writer: " + message);
    case SQLITE_READONLY:
        return Error(ErrorCode::HistoryReadOnly, fileName_, "is read-only: " + message);
    case SQLITE_CANTOPEN:
        return Error(ErrorCode::ReadFailed, fileName_, "cannot be opened: " + message);
    default:
        return Error(ErrorCode::WriteFailed, fileName_, message);
    }
}

}  // namespace tapestry
