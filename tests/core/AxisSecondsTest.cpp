// AxisSeconds keeps std::vector's resize/assign meaning across its inline and spilled
// storage.
#include "cost/AxisSeconds.h"

#include <QTest>

using namespace tapestry;

class AxisSecondsTest : public QObject {
    Q_OBJECT

private slots:
    void growsAndShrinksLikeAVector()
    {
        AxisSeconds axes;
        QVERIFY(axes.empty());
        axes.assign(3, 1.5);
        axes[2] = 4.0;
        axes.resize(AxisSeconds::kInline + 2, 0.5);  // spills: the first three are kept
        QCOMPARE(axes.size(), AxisSeconds::kInline + 2);
        QCOMPARE(axes[0], 1.5);
        QCOMPARE(axes[2], 4.0);
        QCOMPARE(axes[3], 0.5);
        QCOMPARE(axes[AxisSeconds::kInline + 1], 0.5);
        axes[1] = 7.0;
        axes.resize(2);  // back inline: the first two are kept
        QCOMPARE(axes.size(), std::size_t{2});
        QCOMPARE(axes[1], 7.0);
        axes.resize(4, 9.0);
        QCOMPARE(axes[2], 9.0);
        QCOMPARE(axes[3], 9.0);
        const AxisSeconds copy = axes;
        axes.assign(AxisSeconds::kInline + 1, 0.0);
        QCOMPARE(copy[1], 7.0);
        QCOMPARE(axes[1], 0.0);
        QCOMPARE(axes[AxisSeconds::kInline], 0.0);
    }
};

QTEST_GUILESS_MAIN(AxisSecondsTest)
#include "AxisSecondsTest.moc"
