// nccl-tests logs in both column layouts (tests/data/nccl, written for these tests),
// the size -> bus bandwidth curve made from them, and its interpolation.
#include "base/Error.h"
#include "cluster/NcclTestsLog.h"

#include <QTest>

#include <cmath>

using namespace tapestry;

namespace {

const std::filesystem::path kNcclDir = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / "nccl";

bool near(double actual, double expected, double relative = 1e-12)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

ErrorCode codeOf(std::string_view text)
{
    try {
        (void)NcclTestsLog::parse(text, "bad.log");
    } catch (const Error& error) {
        return error.code();
    }
    return ErrorCode::InvalidArgument;  // no error: never expected by these tests
}

}  // namespace

class NcclTestsLogTest : public QObject {
    Q_OBJECT

private slots:
    void currentLayoutAllReduce()
    {
        const NcclTestsLog log = NcclTestsLog::load(kNcclDir / "all_reduce_perf.dgx-h100x1.log");
        QCOMPARE(log.layout(), NcclTestsLayout::Current);
        QCOMPARE(log.rankCount(), 8);
        QCOMPARE(log.rows().size(), 7u);
        const NcclTestsRow& last = log.rows().back();  // out-of-place columns, not in-place
        QCOMPARE(last.sizeBytes, std::uint64_t{1} << 30);
        QCOMPARE(last.count, std::uint64_t{1} << 28);
        QCOMPARE(last.dataType, std::string("float"));
        QVERIFY(near(last.timeSeconds, 5118.37e-6));
        QVERIFY(near(last.algBytesPerSecond, 209.78e9));
        QVERIFY(near(last.busBytesPerSecond, 367.12e9));
        QVERIFY(near(*log.averageBusBytesPerSecond(), 139.6657e9));
    }

    void legacyLayoutWithoutRedopOrRoot()
    {
        const NcclTestsLog log = NcclTestsLog::load(kNcclDir / "all_gather_perf.dgx-a100x1.legacy.log");
        QCOMPARE(log.layout(), NcclTestsLayout::Legacy);
        QCOMPARE(log.rankCount(), 8);
        QCOMPARE(log.rows().size(), 7u);
        QCOMPARE(log.rows().front().sizeBytes, std::uint64_t{256});
        QVERIFY(near(log.rows()[5].timeSeconds, 1113.40e-6));
        QVERIFY(near(log.rows()[5].busBytesPerSecond, 210.96e9));
        QVERIFY(near(*log.averageBusBytesPerSecond(), 78.1226e9));
    }

    void legacyAllToAllAndCurrentReduceScatter()
    {
        const NcclTestsLog a2a = NcclTestsLog::load(kNcclDir / "alltoall_perf.2nodes-1gpu.legacy.log");
        QCOMPARE(a2a.layout(), NcclTestsLayout::Legacy);
        QCOMPARE(a2a.rankCount(), 2);
        QCOMPARE(a2a.rows().size(), 5u);
        QVERIFY(near(a2a.rows().back().busBytesPerSecond, 44.89e9));
        const NcclTestsLog rs = NcclTestsLog::load(kNcclDir / "reduce_scatter_perf.dgx-h100x1.log");
        QCOMPARE(rs.layout(), NcclTestsLayout::Current);
        QCOMPARE(rs.rows().size(), 7u);
    }

    void curvePointsAreRecomputedFromTime()
    {
        const NcclTestsLog log = NcclTestsLog::load(kNcclDir / "all_reduce_perf.dgx-h100x1.log");
        const BusBandwidthCurve curve = log.busBandwidthCurve();
        QCOMPARE(curve.points().size(), 7u);
        const double ratio = 367.12 / 209.78;  // busbw / algbw of the widest row, ~1.75
        // The 8-byte row prints busbw 0.00; from its time it is 8 B / 12.5 us * 1.75.
        QCOMPARE(curve.points().front().sizeBytes, 8.0);
        QVERIFY(near(curve.points().front().busBytesPerSecond, 8 / 12.5e-6 * ratio));
        QVERIFY(near(curve.points()[3].busBytesPerSecond, 1048576 / 40.96e-6 * ratio));
        QVERIFY(near(curve.points()[3].busBytesPerSecond, 44.80e9, 1e-3));  // agrees with the print
    }

    void interpolationIsLinearInLogSizeAndClamped()
    {
        const NcclTestsLog log = NcclTestsLog::load(kNcclDir / "all_reduce_perf.dgx-h100x1.log");
        const BusBandwidthCurve curve = log.busBandwidthCurve();
        const auto& p = curve.points();
        // 4 MiB is halfway between 1 MiB and 16 MiB in log size.
        QVERIFY(near(curve.busBytesPerSecondAt(4 << 20), (p[3].busBytesPerSecond + p[4].busBytesPerSecond) / 2));
        QCOMPARE(curve.busBytesPerSecondAt(1 << 20), p[3].busBytesPerSecond);
        QCOMPARE(curve.busBytesPerSecondAt(1), p.front().busBytesPerSecond);
        QCOMPARE(curve.busBytesPerSecondAt(1e12), p.back().busBytesPerSecond);
    }

    void toolNamesMapToCollectives()
    {
        QCOMPARE(collectiveFromNcclTestsName("all_reduce_perf"), std::optional(CollectiveKind::AllReduce));
        QCOMPARE(collectiveFromNcclTestsName("logs/alltoall_perf.16gpu.log"), std::optional(CollectiveKind::AllToAll));
        QCOMPARE(collectiveFromNcclTestsName("reduce_scatter_perf"), std::optional(CollectiveKind::ReduceScatter));
        QCOMPARE(collectiveFromNcclTestsName("all_gather_perf"), std::optional(CollectiveKind::AllGather));
        QVERIFY(!collectiveFromNcclTestsName("sendrecv_perf"));
    }

    void badLogsAreErrors()
    {
        QCOMPARE(codeOf("hello\nworld\n"), ErrorCode::InvalidNcclTestsLog);
        const std::string header = "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n";
        QCOMPARE(codeOf(header), ErrorCode::InvalidNcclTestsLog);  // no rows
        QCOMPARE(codeOf(header + "1024 256 float sum -1 13.10 0.08 0.14 0\n"), ErrorCode::InvalidNcclTestsLog);
        QCOMPARE(codeOf(header + "1024 256 float sum -1 fast 0.08 0.14 0 13.2 0.08 0.14 0\n"),
                 ErrorCode::InvalidNcclTestsLog);
        // The campaign's crash: a line of only \f or \v after the header (it read the first
        // cell of an empty row). Such lines are blank like any other.
        const std::string row = "1024 256 float sum -1 13.10 0.08 0.14 0 13.2 0.08 0.14 0\n";
        QCOMPARE(NcclTestsLog::parse(header + "\f\n" + row, "ff.log").rows().size(), 1u);
        QCOMPARE(NcclTestsLog::parse(header + "\v\n" + row + " \v\f\n", "vt.log").rows().size(), 1u);
        // Times and bandwidths that are no measurement.
        QCOMPARE(codeOf(header + "1024 256 float sum -1 nan 0.08 0.14 0 13.2 0.08 0.14 0\n"),
                 ErrorCode::InvalidNcclTestsLog);
        QCOMPARE(codeOf(header + "1024 256 float sum -1 13.10 0.08 -0.14 0 13.2 0.08 0.14 0\n"),
                 ErrorCode::InvalidNcclTestsLog);
        QCOMPARE(codeOf(header + "1024 256 float sum -1 13.10 inf 0.14 0 13.2 0.08 0.14 0\n"),
                 ErrorCode::InvalidNcclTestsLog);
        // Noise between rows (NCCL_DEBUG=INFO output) is skipped.
        const NcclTestsLog ok = NcclTestsLog::parse(
            header + "node01:4100:4100 [0] NCCL INFO Launch mode Parallel\n"
                     "1024 256 float sum -1 13.10 0.08 0.14 0 13.2 0.08 0.14 0\n", "ok.log");
        QCOMPARE(ok.rows().size(), 1u);
        QVERIFY(!ok.averageBusBytesPerSecond());
        QCOMPARE(ok.rankCount(), 0);
    }
};

QTEST_APPLESS_MAIN(NcclTestsLogTest)
#include "NcclTestsLogTest.moc"
