#include "UsageEnvelope.h"

#include <QTest>

using namespace tapestry;

// The per-column reduction of a memory profile that the usage chart draws.
class UsageEnvelopeTest : public QObject {
    Q_OBJECT

private slots:
    void fewerPointsThanColumnsKeepsEveryPoint()
    {
        const std::vector<UsageColumn> columns = usageEnvelope({3, 1, 4}, 100);
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
        const std::vector<UsageColumn> columns = usageEnvelope({5, 6, 5, 5, 0, 5, 5, 99, 5, 5}, 3);
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
};

QTEST_GUILESS_MAIN(UsageEnvelopeTest)
#include "UsageEnvelopeTest.moc"
