#pragma once

namespace tapestry {

class SqliteConnection;

// A write transaction as a scope: committed by commit(), rolled back by the destructor
// otherwise (an exception on the way). The outermost guard takes the write lock up
// front (BEGIN IMMEDIATE) so that a second writer waits in the busy handler instead of
// failing on a read-to-write upgrade; nested guards are savepoints. On a read-only
// connection it throws HistoryReadOnly, on one that refuses writes (a damaged file) the
// refusal, before anything is attempted.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteConnection& connection);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;

    void commit();

private:
    SqliteConnection& connection_;
    bool nested_ = false;
    bool done_ = false;
};

}  // namespace tapestry
