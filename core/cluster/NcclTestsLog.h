#pragma once

#include "cluster/BusBandwidthCurve.h"
#include "cluster/CollectiveKind.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// The two column layouts of nccl-tests' result table.
enum class NcclTestsLayout {
    Current,  // size count type redop root time algbw busbw #wrong (x2)
    Legacy,   // size count type redop time algbw busbw error (x2), no root column
};

// One result row, out-of-place columns only: in-place runs of AllGather/AllToAll reuse
// the output buffer and are not what a planner's collectives do.
struct NcclTestsRow {
    std::uint64_t sizeBytes = 0;
    std::uint64_t count = 0;
    std::string dataType;
    double timeSeconds = 0;
    double algBytesPerSecond = 0;  // as printed (GB/s, two decimals)
    double busBytesPerSecond = 0;  // as printed (GB/s, two decimals)
};

// A parsed log of all_reduce_perf, all_gather_perf, reduce_scatter_perf or
// alltoall_perf. The layout is read from the column header comment line, so both
// layouts parse; NCCL_DEBUG lines and other noise between rows are skipped.
class NcclTestsLog {
public:
    // Throws Error(InvalidNcclTestsLog, fileName, ...) when there is no column header,
    // a row is truncated or not numeric, or there are no rows.
    [[nodiscard]] static NcclTestsLog parse(std::string_view text, const std::string& fileName);
    // Also the file errors of readTextFile.
    [[nodiscard]] static NcclTestsLog load(const std::filesystem::path& file);

    [[nodiscard]] NcclTestsLayout layout() const { return layout_; }
    [[nodiscard]] const std::vector<NcclTestsRow>& rows() const { return rows_; }
    // The "# Avg bus bandwidth : X" footer, in bytes per second, when present.
    [[nodiscard]] std::optional<double> averageBusBytesPerSecond() const { return averageBus_; }
    // Ranks listed under "# Using devices" (0 when the log has no device list).
    [[nodiscard]] int rankCount() const { return rankCount_; }

    // The size -> bus bandwidth curve of the out-of-place rows with size > 0. Printed
    // bandwidths have two decimals (small messages print 0.00), so each point's bus
    // bandwidth is recomputed as size / time * (busbw / algbw), the ratio taken from
    // the row with the largest algbw; it is constant within one log.
    [[nodiscard]] BusBandwidthCurve busBandwidthCurve() const;

private:
    NcclTestsLayout layout_ = NcclTestsLayout::Current;
    std::vector<NcclTestsRow> rows_;
    std::optional<double> averageBus_;
    int rankCount_ = 0;
    std::string fileName_;
};

// The collective an nccl-tests tool measures, from its name or a file name that
// contains it ("all_reduce_perf", "logs/alltoall_perf.16gpu.log"); nullopt otherwise.
[[nodiscard]] std::optional<CollectiveKind> collectiveFromNcclTestsName(std::string_view name);

}  // namespace tapestry
