#include "history/SqliteStatement.h"

#include "base/Error.h"
#include "history/SqliteConnection.h"

#include <sqlite3.h>

namespace tapestry {

SqliteStatement::SqliteStatement(SqliteConnection& connection, std::string_view sql)
    : connection_(connection), sql_(sql)
{
    const int rc = sqlite3_prepare_v2(connection_.handle(), sql_.data(), static_cast<int>(sql_.size()), &statement_,
                                      nullptr);
    // Tapestry's own statements fail to prepare only where the file's tables are not
    // the ones Tapestry made (a missing column, a damaged schema).
    if (rc != SQLITE_OK)
        throw connection_.error(rc == SQLITE_ERROR ? SQLITE_CORRUPT : rc, "preparing '" + sql_.substr(0, 60) + "'");
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(std::int64_t value)
{
    sqlite3_bind_int64(statement_, nextParameter_++, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(double value)
{
    sqlite3_bind_double(statement_, nextParameter_++, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(std::string_view text)
{
    sqlite3_bind_text(statement_, nextParameter_++, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bind(std::optional<double> value)
{
    return value ? bind(*value) : bindNull();
}

SqliteStatement& SqliteStatement::bindNull()
{
    sqlite3_bind_null(statement_, nextParameter_++);
    return *this;
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    throw connection_.error(rc, "running '" + sql_.substr(0, 60) + "'");
}

void SqliteStatement::reset()
{
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
    nextParameter_ = 1;
}

void SqliteStatement::run()
{
    while (step()) {
    }
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::integer(int column) const
{
    if (sqlite3_column_type(statement_, column) != SQLITE_INTEGER)
        throw misplacedValue(column, "a whole number");
    return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::real(int column) const
{
    const int type = sqlite3_column_type(statement_, column);
    if (type != SQLITE_FLOAT && type != SQLITE_INTEGER)
        throw misplacedValue(column, "a number");
    return sqlite3_column_double(statement_, column);
}

Error SqliteStatement::misplacedValue(int column, const std::string& expected) const
{
    const int type = sqlite3_column_type(statement_, column);
    std::string value = type == SQLITE_NULL ? std::string("NULL") : "'" + text(column).substr(0, 40) + "'";
    return Error(ErrorCode::HistoryCorrupt, connection_.fileName(),
                 "holds " + value + " in column '" + sqlite3_column_name(statement_, column) + "', where " + expected +
                     " belongs");
}

std::string SqliteStatement::text(int column) const
{
    const unsigned char* data = sqlite3_column_text(statement_, column);
    const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(statement_, column));
    if (bytes > kMaxTextBytes)
        throw Error(ErrorCode::HistoryCorrupt, connection_.fileName(),
                    "holds a field of " + std::to_string(bytes) + " bytes in column '" +
                        sqlite3_column_name(statement_, column) + "', more than the " +
                        std::to_string(kMaxTextBytes >> 20) + " MiB any history record has; it was not read");
    return data ? std::string(reinterpret_cast<const char*>(data), bytes) : std::string();
}

}  // namespace tapestry
