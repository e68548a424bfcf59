#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace tapestry {

class SqliteConnection;

// One prepared statement. Parameters are bound in order (bind(a).bind(b)); step()
// returns true while a row is ready; columns are read by index.
class SqliteStatement {
public:
    SqliteStatement(SqliteConnection& connection, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(std::int64_t value);
    SqliteStatement& bind(double value);
    SqliteStatement& bind(std::string_view text);
    SqliteStatement& bind(std::optional<double> value);
    SqliteStatement& bindNull();

    [[nodiscard]] bool step();
    // Steps to the end, for statements without result rows.
    void run();

    [[nodiscard]] bool isNull(int column) const;
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] double real(int column) const;
    [[nodiscard]] std::string text(int column) const;

private:
    SqliteConnection& connection_;
    sqlite3_stmt* statement_ = nullptr;
    int nextParameter_ = 1;
    std::string sql_;
};

}  // namespace tapestry
