// Collective pricing against the closed forms of cost-model.md: ring formulas on one
// link class, TAPS hierarchical decompositions on mixed axes, and calibration curves.
#include "cluster/ClusterFile.h"
#include "cluster/CollectiveCost.h"
#include "cluster/NcclTestsLog.h"

#include <QTest>

#include <cmath>

using namespace tapestry;

namespace {

const std::filesystem::path kPresetDir = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "resources" / "clusters";
const std::filesystem::path kNcclDir = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / "nccl";

constexpr double S = 1 << 30;  // 1 GiB per-device payload
constexpr double kBi = 370e9;  // dgx-h100 intra-node bandwidth and latency
constexpr double kAi = 3e-6;
constexpr double kBe = 48e9;   // dgx-h100 inter-node bandwidth and latency
constexpr double kAe = 6e-6;

bool near(double actual, double expected, double relative = 1e-12)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

AxisGroup axisOf(const Cluster& cluster, std::vector<int> shape, std::size_t axis)
{
    static const char* const kNames[] = {"a0", "a1", "a2"};
    std::vector<MeshAxis> axes;
    for (std::size_t i = 0; i < shape.size(); ++i)
        axes.push_back({kNames[i], shape[i]});
    return DeviceMesh(axes, cluster).group(axis);
}

}  // namespace

class CollectiveCostTest : public QObject {
    Q_OBJECT

private slots:
    void ringFormulasOnOneNode()
    {
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x1");
        const CollectiveCost cost(c);
        const AxisGroup eight = axisOf(c, {8}, 0);
        const CollectiveBreakdown ar = cost.price(CollectiveKind::AllReduce, eight, S);
        QCOMPARE(ar.stageCount, 1u);
        QCOMPARE(ar.stages[0].link, LinkClass::Intra);
        QVERIFY(near(ar.seconds(), 2.0 * 7 / 8 * S / kBi + 2 * 7 * kAi));
        QVERIFY(near(ar.seconds(LinkClass::Intra), ar.seconds()));
        QCOMPARE(ar.seconds(LinkClass::Inter), 0.0);
        for (const CollectiveKind kind : {CollectiveKind::AllGather, CollectiveKind::ReduceScatter, CollectiveKind::AllToAll})
            QVERIFY(near(cost.price(kind, eight, S).seconds(), 7.0 / 8 * S / kBi + 7 * kAi));
    }

    void groupOfOneOrNoBytesCostsNothing()
    {
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x1");
        const CollectiveCost cost(c);
        const CollectiveBreakdown one = cost.price(CollectiveKind::AllReduce, axisOf(c, {1, 8}, 0), S);
        QCOMPARE(one.stageCount, 0u);
        QCOMPARE(one.seconds(), 0.0);
        QCOMPARE(cost.price(CollectiveKind::AllGather, axisOf(c, {8}, 0), 0).seconds(), 0.0);
    }

    void acrossNodesOneGpuEachUsesTheNics()
    {
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x2");
        const CollectiveBreakdown ar = CollectiveCost(c).price(CollectiveKind::AllReduce, axisOf(c, {2, 8}, 0), S);
        QCOMPARE(ar.stageCount, 1u);
        QCOMPARE(ar.stages[0].link, LinkClass::Inter);
        QVERIFY(near(ar.seconds(), 2.0 * 1 / 2 * S / kBe + 2 * 1 * kAe));
    }

    void sameGroupAcrossNodesCostsBintraOverBinterMore()
    {
        // 8 nodes x 8 GPUs as [8, 8]: axis 1 is 8 GPUs of one node, axis 0 is 8 GPUs on 8 nodes.
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x1").withNodes(8);
        const CollectiveCost cost(c);
        const double inside = cost.price(CollectiveKind::AllReduce, axisOf(c, {8, 8}, 1), S).seconds() - 14 * kAi;
        const double across = cost.price(CollectiveKind::AllReduce, axisOf(c, {8, 8}, 0), S).seconds() - 14 * kAe;
        QVERIFY(near(across / inside, kBi / kBe, 1e-9));  // 370 / 48 ~ 7.7
    }

    void hierarchicalAllReduceIsTheSumOfItsStages()
    {
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x2");
        const CollectiveCost cost(c);
        const AxisGroup mixed = axisOf(c, {4, 4}, 0);  // k = 2 nodes x m = 2 GPUs
        const CollectiveBreakdown ar = cost.price(CollectiveKind::AllReduce, mixed, S);
        QCOMPARE(ar.stageCount, 3u);
        const double rsIntra = cost.stage(CollectiveKind::ReduceScatter, LinkClass::Intra, 2, S).seconds;
        const double arInter = cost.stage(CollectiveKind::AllReduce, LinkClass::Inter, 2, S / 2).seconds;
        const double agIntra = cost.stage(CollectiveKind::AllGather, LinkClass::Intra, 2, S).seconds;
        QVERIFY(near(rsIntra, 0.5 * S / kBi + kAi));
        QVERIFY(near(arInter, 2 * 0.5 * (S / 2) / kBe + 2 * kAe));
        QVERIFY(near(agIntra, rsIntra));
        QVERIFY(near(ar.seconds(), rsIntra + arInter + agIntra));
        QVERIFY(near(ar.seconds(LinkClass::Intra), rsIntra + agIntra));
        QVERIFY(near(ar.seconds(LinkClass::Inter), arInter));
        QCOMPARE(ar.stages[1].kind, CollectiveKind::AllReduce);
        QCOMPARE(ar.stages[1].groupSize, 2);
        QCOMPARE(ar.stages[1].bytes, S / 2);
    }

    void hierarchicalGatherScatterAndAllToAll()
    {
        const Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x4");
        const CollectiveCost cost(c);
        const AxisGroup mixed = axisOf(c, {32}, 0);  // k = 4 nodes x m = 8 GPUs
        QCOMPARE(mixed, (AxisGroup{32, 4, 8, GroupSpan::Mixed}));
        // Bandwidth as the hierarchy moves it; latency as NCCL's one ring over all 32
        // ranks: 28 intra-node hops and 3 inter-node ones.
        const double ag = 3.0 / 4 * (S / 8) / kBe + 3 * kAe + 7.0 / 8 * S / kBi + 28 * kAi;
        QVERIFY(near(cost.price(CollectiveKind::AllGather, mixed, S).seconds(), ag));
        QVERIFY(near(cost.price(CollectiveKind::ReduceScatter, mixed, S).seconds(), ag));
        // AllToAll: the (k-1)/k = 3/4 of S that leaves the node goes at the inter rate,
        // the (m-1)/n = 7/32 addressed to the node's other GPUs at the intra rate.
        const CollectiveBreakdown a2a = cost.price(CollectiveKind::AllToAll, mixed, S);
        QVERIFY(near(a2a.seconds(LinkClass::Inter), 3.0 / 4 * S / kBe + 3 * kAe));
        QVERIFY(near(a2a.seconds(LinkClass::Intra), 7.0 / 32 * S / kBi + 7 * kAi));
    }

    void withEqualLinksTheHierarchyCostsTheFlatRing()
    {
        Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x4");
        c.intraNode = {100e9, 0};
        c.interNode = {100e9, 0};
        const CollectiveCost cost(c);
        const AxisGroup mixed = axisOf(c, {32}, 0);
        QVERIFY(near(cost.price(CollectiveKind::AllReduce, mixed, S).seconds(), 2.0 * 31 / 32 * S / 100e9));
        for (const CollectiveKind kind : {CollectiveKind::AllGather, CollectiveKind::ReduceScatter, CollectiveKind::AllToAll})
            QVERIFY(near(cost.price(kind, mixed, S).seconds(), 31.0 / 32 * S / 100e9));
    }

    void aCalibratedClusterPricesWithTheCurve()
    {
        Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x1");
        c.curves.emplace(std::pair{CollectiveKind::AllReduce, LinkClass::Intra},
                         BusBandwidthCurve({{1e6, 100e9}, {1e8, 300e9}}));
        const CollectiveCost cost(c);
        const AxisGroup eight = axisOf(c, {8}, 0);
        // 1e7 is halfway between 1e6 and 1e8 in log size: busbw 200 GB/s.
        QVERIFY(near(cost.price(CollectiveKind::AllReduce, eight, 1e7).seconds(), 1.75 * 1e7 / 200e9));
        QVERIFY(near(cost.price(CollectiveKind::AllReduce, eight, 1e10).seconds(), 1.75 * 1e10 / 300e9));
        // No curve for AllGather: still the alpha-beta formula.
        QVERIFY(near(cost.price(CollectiveKind::AllGather, eight, S).seconds(), 7.0 / 8 * S / kBi + 7 * kAi));
    }

    void aCurveFromAnNcclLogReproducesTheMeasuredTime()
    {
        Cluster c = loadClusterPreset(kPresetDir, "dgx-h100x1");
        const NcclTestsLog log = NcclTestsLog::load(kNcclDir / "all_reduce_perf.dgx-h100x1.log");
        c.curves.emplace(std::pair{CollectiveKind::AllReduce, LinkClass::Intra}, log.busBandwidthCurve());
        const CollectiveCost cost(c);
        // The log's 1 GiB row took 5118.37 us on 8 GPUs; the busbw/algbw ratio printed in
        // it (367.12 / 209.78) is 1.75 up to rounding.
        QVERIFY(near(cost.price(CollectiveKind::AllReduce, axisOf(c, {8}, 0), S).seconds(), 5118.37e-6, 1e-4));
        QVERIFY(near(cost.price(CollectiveKind::AllReduce, axisOf(c, {8}, 0), 65536).seconds(), 20.48e-6, 1e-4));
    }
};

QTEST_APPLESS_MAIN(CollectiveCostTest)
#include "CollectiveCostTest.moc"
