#include "model/LoadedModel.h"
#include "model/OpHistogramModel.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace tapestry;

// The op-type table of the summary: rows in the summary's order (most frequent first),
// shares of all ops, and numeric sorting through a proxy.
class OpHistogramModelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    // A small histogram whose shares are easy to check: 6 of 8 ops are MatMul.
    void sharesOfAHandMadeHistogram()
    {
        OpHistogramModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setHistogram({{"MatMul", 6}, {"Add", 2}}, 8);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, OpHistogramModel::TypeColumn).data().toString(), QStringLiteral("MatMul"));
        QCOMPARE(model.index(0, OpHistogramModel::ShareColumn).data().toString(), QStringLiteral("75.0 %"));
        QCOMPARE(model.index(1, OpHistogramModel::ShareColumn).data().toString(), QStringLiteral("25.0 %"));
        QCOMPARE(model.index(1, OpHistogramModel::ShareColumn).data(OpHistogramModel::BarFractionRole).toDouble(),
                 2.0 / 6.0);
        model.setHistogram({}, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    // llama.ts.stripped.onnx: 186 of its 549 ops are Constant, then 63 Mul.
    void realModelSortsNumerically()
    {
        const auto loaded = LoadedModel::load(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/llama.ts.stripped.onnx"));
        OpHistogramModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setHistogram(loaded->summary.opHistogram, loaded->summary.opCount);
        QCOMPARE(model.index(0, OpHistogramModel::TypeColumn).data().toString(), QStringLiteral("Constant"));
        QCOMPARE(model.index(0, OpHistogramModel::CountColumn).data().toString(), QStringLiteral("186"));
        QCOMPARE(model.index(0, OpHistogramModel::ShareColumn).data().toString(), QStringLiteral("33.9 %"));

        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(OpHistogramModel::SortRole);
        sorted.sort(OpHistogramModel::CountColumn, Qt::AscendingOrder);
        // Numeric, not text order: "9" must not sort after "186".
        const int last = sorted.rowCount() - 1;
        QCOMPARE(sorted.index(last, OpHistogramModel::CountColumn).data().toString(), QStringLiteral("186"));
        QCOMPARE(sorted.index(last - 1, OpHistogramModel::TypeColumn).data().toString(), QStringLiteral("Mul"));
    }
};

QTEST_MAIN(OpHistogramModelTest)
#include "OpHistogramModelTest.moc"
