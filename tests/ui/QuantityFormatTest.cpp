#include "common/QuantityFormat.h"

#include <QLocale>
#include <QTest>

using namespace tapestry;

// Three significant digits in decimal units, as model cards write sizes.
class QuantityFormatTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void counts_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << quint64{0} << QStringLiteral("0");
        QTest::newRow("below a thousand is exact") << quint64{999} << QStringLiteral("999");
        QTest::newRow("thousands") << quint64{1234} << QStringLiteral("1.23 K");
        QTest::newRow("GPT-2 small") << quint64{124'439'808} << QStringLiteral("124 M");
        QTest::newRow("rounds up into the next unit") << quint64{999'500} << QStringLiteral("1.00 M");
        QTest::newRow("Llama-3-8B") << quint64{8'030'261'248} << QStringLiteral("8.03 B");
        QTest::newRow("GPT-3") << quint64{175'000'000'000} << QStringLiteral("175 B");
        QTest::newRow("trillions") << quint64{1'600'000'000'000} << QStringLiteral("1.60 T");
    }

    void counts()
    {
        QFETCH(quint64, value);
        QFETCH(QString, text);
        QCOMPARE(QuantityFormat::count(value), text);
    }

    void bytes_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("bytes") << quint64{512} << QStringLiteral("512 bytes");
        QTest::newRow("Llama-3-8B in bfloat16") << quint64{16'060'522'496} << QStringLiteral("16.1 GB");
        QTest::newRow("kilobytes") << quint64{4'096} << QStringLiteral("4.10 kB");
        QTest::newRow("GPT-3 in fp16") << quint64{350'000'000'000} << QStringLiteral("350 GB");
    }

    void bytes()
    {
        QFETCH(quint64, value);
        QFETCH(QString, text);
        QCOMPARE(QuantityFormat::bytes(value), text);
    }

    // A search of a small model takes milliseconds: "0.0 s" said nothing.
    void durations_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("a few milliseconds") << 0.0042 << QStringLiteral("4.2 ms");
        QTest::newRow("under 50 ms") << 0.035 << QStringLiteral("35 ms");
        QTest::newRow("rounds up to 10 ms") << 0.00996 << QStringLiteral("10 ms");
        QTest::newRow("rounds up to a second") << 0.9996 << QStringLiteral("1.0 s");
        QTest::newRow("seconds") << 12.34 << QStringLiteral("12.3 s");
        QTest::newRow("grouped") << 1234.5 << QStringLiteral("1,234.5 s");
    }

    void durations()
    {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(QuantityFormat::duration(seconds), text);
    }

    void exactUsesDigitGrouping() { QCOMPARE(QuantityFormat::exact(2191), QStringLiteral("2,191")); }

    void followsTheLocale()
    {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(QuantityFormat::bytes(16'060'522'496), QStringLiteral("16,1 GB"));
        QCOMPARE(QuantityFormat::exact(2191), QStringLiteral("2.191"));
        QCOMPARE(QuantityFormat::duration(0.0042), QStringLiteral("4,2 ms"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
};

QTEST_GUILESS_MAIN(QuantityFormatTest)
#include "QuantityFormatTest.moc"
