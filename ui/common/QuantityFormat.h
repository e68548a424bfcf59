#pragma once

#include "solver/ShardingProblem.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace tapestry {

// Large counts as ML engineers write them, with three significant digits in the
// current locale: 8030261248 parameters -> "8.03 B", 16060522496 bytes -> "16.1 GB".
class QuantityFormat {
    Q_DECLARE_TR_FUNCTIONS(QuantityFormat)

public:
    // Decimal units K, M, B, T; below 1000 the exact number.
    [[nodiscard]] static QString count(std::uint64_t value);
    // Decimal (SI) units kB, MB, GB, TB, as model cards and download pages use.
    [[nodiscard]] static QString bytes(std::uint64_t value);
    // An exact count with the locale's digit grouping: "2,114".
    [[nodiscard]] static QString exact(std::uint64_t value);
    // A sharding problem's cost, exact and grouped like exact(); sums beyond 64 bits
    // (never seen in practice) as plain digits.
    [[nodiscard]] static QString cost(CostSum value);
    // A wall time as a person reads it: "35 ms" under a second ("4.2 ms" under 10 ms),
    // "12.3 s" from a second on.
    [[nodiscard]] static QString duration(double seconds);
};

}  // namespace tapestry
