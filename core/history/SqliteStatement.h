#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace tapestry {

class Error;
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
    // Back to before the first step, with no parameters bound, to run it again.
    void reset();
    // Steps to the end, for statements without result rows.
    void run();

    [[nodiscard]] bool isNull(int column) const;
    // Throw HistoryCorrupt, naming the column, for a value of another type (text where
    // a number belongs): such a file was not written by Tapestry.
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] double real(int column) const;
    // Throws HistoryCorrupt for a text longer than kMaxTextBytes: no record Tapestry
    // writes comes near it, and reading one would only exhaust memory.
    [[nodiscard]] std::string text(int column) const;

    static constexpr std::size_t kMaxTextBytes = std::size_t(64) << 20;

    [[nodiscard]] SqliteConnection& connection() const { return connection_; }

private:
    [[nodiscard]] Error misplacedValue(int column, const std::string& expected) const;

    SqliteConnection& connection_;
    sqlite3_stmt* statement_ = nullptr;
    int nextParameter_ = 1;
    std::string sql_;
};

}  // namespace tapestry
