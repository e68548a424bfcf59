#include "cluster/NcclTestsLog.h"

#include "base/Error.h"
#include "base/TextFile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace tapestry {

namespace {

constexpr double kMicrosecond = 1e-6;
constexpr double kGigabytePerSecond = 1e9;  // nccl-tests' GB/s is decimal

std::vector<std::string> tokens(std::string_view line)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    for (std::string token; in >> token;)
        out.push_back(token);
    return out;
}

bool isUnsigned(const std::string& token)
{
    return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Column positions of the out-of-place half of the table.
struct Columns {
    std::size_t total = 0;
    std::size_t size = 0, count = 0, type = 0, time = 0, algbw = 0, busbw = 0;
};

std::optional<std::size_t> firstIndex(const std::vector<std::string>& names, std::string_view name)
{
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - names.begin());
}

}  // namespace

NcclTestsLog NcclTestsLog::parse(std::string_view text, const std::string& fileName)
{
    NcclTestsLog log;
    log.fileName_ = fileName;
    std::optional<Columns> columns;
    std::size_t lineNumber = 0;
    auto fail = [&](const std::string& what) {
        throw Error(ErrorCode::InvalidNcclTestsLog, fileName, "line " + std::to_string(lineNumber) + ": " + what);
    };

    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;

        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos)
            continue;
        if (line[first] == '#') {
            const std::string_view body = line.substr(first + 1);
            const std::vector<std::string> names = tokens(body);
            if (names.size() >= 2 && names[0] == "Rank")
                ++log.rankCount_;
            if (body.find("Avg bus bandwidth") != std::string_view::npos) {
                const std::size_t colon = body.find(':');
                double gbps = 0;
                const std::string value = colon == std::string_view::npos ? std::string() : std::string(body.substr(colon + 1));
                const std::vector<std::string> parts = tokens(value);
                if (parts.empty() || std::from_chars(parts[0].data(), parts[0].data() + parts[0].size(), gbps).ec != std::errc())
                    fail("cannot read the average bus bandwidth");
                log.averageBus_ = gbps * kGigabytePerSecond;
            }
            const auto size = firstIndex(names, "size");
            const auto time = firstIndex(names, "time");
            if (!columns && size && time && firstIndex(names, "busbw")) {
                Columns c;
                c.total = names.size();
                c.size = *size;
                c.time = *time;
                c.algbw = firstIndex(names, "algbw").value_or(c.total);
                c.busbw = *firstIndex(names, "busbw");
                c.count = firstIndex(names, "count").value_or(c.total);
                c.type = firstIndex(names, "type").value_or(c.total);
                if (c.algbw == c.total || c.count == c.total || c.type == c.total)
                    fail("the column header lacks count, type or algbw");
                if (firstIndex(names, "#wrong"))
                    log.layout_ = NcclTestsLayout::Current;
                else if (firstIndex(names, "error"))
                    log.layout_ = NcclTestsLayout::Legacy;
                else
                    fail("the column header has neither a #wrong nor an error column");
                columns = c;
            }
            continue;
        }

        // A line of only \f or \v passed the blank check above but has no cells.
        const std::vector<std::string> cells = tokens(line);
        if (!columns || cells.empty() || !isUnsigned(cells.front()))
            continue;  // text before the table, NCCL_DEBUG output, warnings
        if (cells.size() != columns->total)
            fail("a result row has " + std::to_string(cells.size()) + " columns, the header names "
                 + std::to_string(columns->total));
        NcclTestsRow row;
        double timeUs = 0;
        double algbw = 0;
        double busbw = 0;
        auto number = [&](std::size_t column, auto& into, const char* what) {
            const std::string& cell = cells[column];
            const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), into);
            if (ec != std::errc() || ptr != cell.data() + cell.size())
                fail(std::string("the ") + what + " \"" + cell + "\" is not a number");
        };
        number(columns->size, row.sizeBytes, "size");
        number(columns->count, row.count, "count");
        number(columns->time, timeUs, "time");
        number(columns->algbw, algbw, "algbw");
        number(columns->busbw, busbw, "busbw");
        // from_chars reads "nan", "inf" and "-1" too: a curve built from them prices nothing.
        for (const auto& [value, what] : {std::pair{timeUs, "time"}, {algbw, "algbw"}, {busbw, "busbw"}}) {
            if (!std::isfinite(value) || value < 0)
                fail(std::string("the ") + what + " " + std::to_string(value) + " is not a number >= 0");
        }
        row.dataType = cells[columns->type];
        row.timeSeconds = timeUs * kMicrosecond;
        row.algBytesPerSecond = algbw * kGigabytePerSecond;
        row.busBytesPerSecond = busbw * kGigabytePerSecond;
        log.rows_.push_back(std::move(row));
    }
    if (!columns)
        throw Error(ErrorCode::InvalidNcclTestsLog, fileName,
                    "no nccl-tests column header (\"# size count type ... time algbw busbw ...\") found");
    if (log.rows_.empty())
        throw Error(ErrorCode::InvalidNcclTestsLog, fileName, "the log has a column header but no result rows");
    return log;
}

NcclTestsLog NcclTestsLog::load(const std::filesystem::path& file)
{
    return parse(readTextFile(file), file.string());
}

BusBandwidthCurve NcclTestsLog::busBandwidthCurve() const
{
    const auto widest = std::max_element(rows_.begin(), rows_.end(), [](const NcclTestsRow& a, const NcclTestsRow& b) {
        return a.algBytesPerSecond < b.algBytesPerSecond;
    });
    if (widest == rows_.end() || !(widest->algBytesPerSecond > 0) || !(widest->busBytesPerSecond > 0))
        throw Error(ErrorCode::InvalidNcclTestsLog, fileName_, "no row has a positive algbw and busbw");
    const double busPerAlg = widest->busBytesPerSecond / widest->algBytesPerSecond;
    std::vector<BusBandwidthCurve::Point> points;
    for (const NcclTestsRow& row : rows_) {
        if (row.sizeBytes == 0)
            continue;
        if (!(row.timeSeconds > 0))
            throw Error(ErrorCode::InvalidNcclTestsLog, fileName_,
                        "the row for " + std::to_string(row.sizeBytes) + " bytes has no positive time");
        points.push_back({static_cast<double>(row.sizeBytes),
                          static_cast<double>(row.sizeBytes) / row.timeSeconds * busPerAlg});
    }
    try {
        return BusBandwidthCurve(std::move(points));
    } catch (const Error& error) {
        throw Error(ErrorCode::InvalidNcclTestsLog, fileName_, error.message());
    }
}

std::optional<CollectiveKind> collectiveFromNcclTestsName(std::string_view name)
{
    static constexpr std::pair<std::string_view, CollectiveKind> kTools[] = {
        {"all_reduce_perf", CollectiveKind::AllReduce},
        {"all_gather_perf", CollectiveKind::AllGather},
        {"reduce_scatter_perf", CollectiveKind::ReduceScatter},
        {"alltoall_perf", CollectiveKind::AllToAll},
    };
    for (const auto& [tool, kind] : kTools) {
        if (name.find(tool) != std::string_view::npos)
            return kind;
    }
    return std::nullopt;
}

}  // namespace tapestry
