// AxisSplits keeps std::vector's meaning across its inline and spilled storage; isLegalSplit
// answers what legalSplits lists.
#include "plan/AxisSplit.h"
#include "plan/AxisSplits.h"

#include <QTest>

#include <algorithm>
#include <stdexcept>
#include <utility>

using namespace tapestry;

class AxisSplitsTest : public QObject {
    Q_OBJECT

private slots:
    // Linear layers take every split but heads and hidden; normalization only batch and
    // sequence (or none); isLegalSplit says what legalSplits lists, for every kind.
    void legalSplitsPerKind()
    {
        QVERIFY(isLegalSplit(CoarseNodeKind::Linear, AxisSplit::Row));
        QVERIFY(!isLegalSplit(CoarseNodeKind::Linear, AxisSplit::Head));
        QVERIFY(isLegalSplit(CoarseNodeKind::Normalization, AxisSplit::Sequence));
        QVERIFY(!isLegalSplit(CoarseNodeKind::Normalization, AxisSplit::Hidden));
        QVERIFY(!isLegalSplit(CoarseNodeKind::Conv, AxisSplit::Sequence));
        for (const CoarseNodeKind kind :
             {CoarseNodeKind::Linear, CoarseNodeKind::Conv, CoarseNodeKind::Embedding, CoarseNodeKind::BatchedMatMul,
              CoarseNodeKind::Normalization, CoarseNodeKind::Elementwise}) {
            const std::vector<AxisSplit>& legal = legalSplits(kind);
            for (int s = 0; s <= static_cast<int>(AxisSplit::Expert); ++s) {
                const auto split = static_cast<AxisSplit>(s);
                QCOMPARE(isLegalSplit(kind, split), std::find(legal.begin(), legal.end(), split) != legal.end());
            }
        }
    }

    void growsAndShrinksLikeAVector()
    {
        AxisSplits splits;
        QVERIFY(splits.empty());
        splits.push_back(AxisSplit::Batch);
        splits.push_back(AxisSplit::Column);
        QCOMPARE(splits.size(), std::size_t{2});
        QCOMPARE(splits.front(), AxisSplit::Batch);
        QCOMPARE(splits.back(), AxisSplit::Column);
        splits.resize(AxisSplits::kInline + 2, AxisSplit::Sequence);  // spills: the first two are kept
        QCOMPARE(splits.size(), AxisSplits::kInline + 2);
        QCOMPARE(splits[0], AxisSplit::Batch);
        QCOMPARE(splits[1], AxisSplit::Column);
        QCOMPARE(splits.at(AxisSplits::kInline + 1), AxisSplit::Sequence);
        splits.push_back(AxisSplit::Row);
        QCOMPARE(splits.back(), AxisSplit::Row);
        QCOMPARE(static_cast<std::size_t>(splits.end() - splits.begin()), AxisSplits::kInline + 3);
        splits.resize(3);  // back inline: the first three are kept
        QVERIFY(splits == (AxisSplits{AxisSplit::Batch, AxisSplit::Column, AxisSplit::Sequence}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)splits.at(3));
        const AxisSplits copy = splits;
        splits.assign(2, AxisSplit::None);
        QCOMPARE(copy.size(), std::size_t{3});
        QCOMPARE(copy[1], AxisSplit::Column);
        QVERIFY(splits == AxisSplits(2, AxisSplit::None));
        QVERIFY(!(splits == copy));
    }

    void comparesTheAxesInUseOnly()
    {
        AxisSplits shrunk{AxisSplit::Batch, AxisSplit::Head};
        shrunk.resize(1);
        QVERIFY(shrunk == AxisSplits{AxisSplit::Batch});
        AxisSplits wide(AxisSplits::kInline + 1, AxisSplit::Batch);
        QVERIFY(wide == AxisSplits(AxisSplits::kInline + 1, AxisSplit::Batch));
        wide[AxisSplits::kInline] = AxisSplit::Expert;
        QVERIFY(!(wide == AxisSplits(AxisSplits::kInline + 1, AxisSplit::Batch)));
    }

    // Copies and assignments keep their own values whichever storage either side uses.
    void copiesAcrossInlineAndSpilledStorage()
    {
        AxisSplits wide(AxisSplits::kInline + 2, AxisSplit::Row);
        wide[AxisSplits::kInline + 1] = AxisSplit::Expert;
        const AxisSplits narrow{AxisSplit::Batch, AxisSplit::Head};
        AxisSplits copied(wide);
        QVERIFY(copied == wide);
        wide[AxisSplits::kInline + 1] = AxisSplit::None;
        QCOMPARE(copied[AxisSplits::kInline + 1], AxisSplit::Expert);  // its own heap block
        copied = narrow;  // spilled to inline
        QVERIFY(copied == narrow);
        copied.resize(AxisSplits::kInline + 1, AxisSplit::Column);  // grows again from the two kept
        QCOMPARE(copied[1], AxisSplit::Head);
        QCOMPARE(copied[AxisSplits::kInline], AxisSplit::Column);
        AxisSplits assigned = narrow;
        assigned = wide;  // inline to spilled
        QVERIFY(assigned == wide);
        AxisSplits moved = std::move(assigned);
        QVERIFY(moved == wide);
    }
};

QTEST_GUILESS_MAIN(AxisSplitsTest)
#include "AxisSplitsTest.moc"
