#include "history/SqliteTransaction.h"

#include "base/Error.h"
#include "history/SqliteConnection.h"

namespace tapestry {

SqliteTransaction::SqliteTransaction(SqliteConnection& connection)
    : connection_(connection), nested_(connection.inTransaction())
{
    if (connection_.isReadOnly())
        throw Error(ErrorCode::HistoryReadOnly, connection_.fileName(), "is read-only; nothing was written");
    if (const Error* refusal = connection_.writeRefusal())
        throw *refusal;
    connection_.exec(nested_ ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction()
{
    if (done_)
        return;
    try {
        connection_.exec(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
    } catch (...) {
        // SQLite may already have rolled back (a failed COMMIT, an I/O error); nothing
        // is left to undo and a destructor must not throw.
    }
}

void SqliteTransaction::commit()
{
    connection_.exec(nested_ ? "RELEASE nested" : "COMMIT");
    done_ = true;
}

}  // namespace tapestry
