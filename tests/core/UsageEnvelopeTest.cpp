#include "solver/UsageEnvelope.h"

#include <QTest>

using namespace tapestry;

namespace {

// A profile with one step per time point.
UsageProfile perPoint(const std::vector<std::int64_t>& usage)
{
    UsageProfile profile;
    for (std::size_t t = 0; t < usage.size(); ++t) {
        profile.times.push_back(static_cast<std::int64_t>(t));
        profile.usages.push_back(usage[t]);
    }
    profile.end = static_cast<std::int64_t>(usage.size());
    return profile;
}

}  // namespace

// The per-column reduction of a memory profile that the usage chart draws.
class UsageEnvelopeTest : public QObject {
    Q_OBJECT

private slots:
    void fewerPointsThanColumnsKeepsEveryPoint()
    {
        const std::vector<UsageColumn> columns = usageEnvelope(perPoint({3, 1, 4}), 100);
        QCOMPARE(columns.size(), std::size_t{3});
        QCOMPARE(columns[1].begin, 1);
        QCOMPARE(columns[1].end, 2);
        QCOMPARE(columns[1].min, 1);
        QCOMPARE(columns[1].max, 1);
    }

    // 10 points in 3 columns: [0, 3) [3, 6) [6, 10); the lone spike of 99 at point 7 is the
    // third column's max, the 0 at point 4 the second column's min.
    void columnsKeepTheirLowestAndHighest()
    {
        const std::vector<UsageColumn> columns = usageEnvelope(perPoint({5, 6, 5, 5, 0, 5, 5, 99, 5, 5}), 3);
        QCOMPARE(columns.size(), std::size_t{3});
        QCOMPARE(columns[0].begin, 0);
        QCOMPARE(columns[0].end, 3);
        QCOMPARE(columns[0].max, 6);
        QCOMPARE(columns[1].begin, 3);
        QCOMPARE(columns[1].end, 6);
        QCOMPARE(columns[1].min, 0);
        QCOMPARE(columns[2].begin, 6);
        QCOMPARE(columns[2].end, 10);
        QCOMPARE(columns[2].min, 5);
        QCOMPARE(columns[2].max, 99);
    }

    void emptyProfileHasNoColumns() { QVERIFY(usageEnvelope({}, 10).empty()); }

    // Three steps over 3e9 time points (the solver's time is compressed; a chart's
    // columns are found from the steps, never per time point): 0 until 1e9, 7 until
    // 2e9 + 5, then 2, in three columns of 1e9.
    void longProfilesStayCheap()
    {
        UsageProfile profile;
        profile.times = {0, 1'000'000'000, 2'000'000'005};
        profile.usages = {0, 7, 2};
        profile.end = 3'000'000'000;
        const std::vector<UsageColumn> columns = usageEnvelope(profile, 3);
        QCOMPARE(columns.size(), std::size_t{3});
        QCOMPARE(columns[0].max, 0);
        QCOMPARE(columns[1].min, 7);
        QCOMPARE(columns[1].max, 7);
        QCOMPARE(columns[2].begin, 2'000'000'000);
        QCOMPARE(columns[2].min, 2);
        QCOMPARE(columns[2].max, 7);
    }
};

QTEST_GUILESS_MAIN(UsageEnvelopeTest)
#include "UsageEnvelopeTest.moc"
