// Searching plans across a GB200 NVL72 rack's NVLink domain (issue 27): expert groups
// wider than a node where they pay, the "why" comparison with the best plan whose groups
// keep to a node; dense tensor groups kept to a node where wider ones do not pay, with the
// comparison the other way; and layouts whose groups would straddle two racks left out.
#include "FoldedTestModel.h"
#include "plan/ParallelDegrees.h"
#include "search/SearchSession.h"

#include <QTest>

#include <algorithm>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// 72 experts of a Mixtral-style layer (top-2, width 4,096, FFN 2,048), two layers deep:
// their weights (2 x 72 x 3 x 4096 x 2048 = 3.6 G parameters) outweigh the tokens a rank
// routes (2,048 x 2 x 4,096 per layer), and 72 divides into expert groups of 9, 12, 18,
// 24 and 36 that fill a 72-GPU rack evenly.
std::shared_ptr<const FoldedModel> manyExperts(std::int64_t experts)
{
    ModelSpec spec = findSynthPreset("mixtral-8x7b")->spec;
    spec.layers = 2;
    spec.experts = experts;
    spec.hidden = 4096;
    spec.ffn = 2048;
    return std::make_shared<const FoldedModel>(foldModel(synthesizeModel(spec, "many-experts")));
}

SearchSetup megatronOn(const Cluster& cluster, std::int64_t sequence, bool everyMesh = false)
{
    SearchSetup setup;
    setup.cluster = cluster;
    if (!everyMesh)
        setup.mesh = {{"d", cluster.deviceCount()}};
    setup.workload = workload(cluster.deviceCount(), sequence);
    setup.options.stack = TrainingStack::Megatron;
    setup.options.alternatives = 0;
    return setup;
}

// The span of every mesh axis over which the plan spreads experts.
std::vector<GroupSpan> expertSpans(const Plan& plan, const Cluster& cluster)
{
    const DeviceMesh mesh(plan.mesh, cluster);
    std::vector<GroupSpan> spans;
    for (std::size_t a = 0; a < plan.mesh.size(); ++a) {
        for (const NodeStrategy& strategy : plan.strategies) {
            if (strategy.axes.at(a) == AxisSplit::Expert) {
                spans.push_back(mesh.group(a).span);
                break;
            }
        }
    }
    return spans;
}

}  // namespace

class NvlinkDomainSearchTest : public QObject {
    Q_OBJECT

private slots:
    // On two NVL72 racks (nodes of 4 GPUs, NVLink domains of 72) the search spreads the
    // experts over more than 8 GPUs, all inside one rack (the expert axis is NVLink only),
    // and says why: the best plan whose groups keep to one node is slower. On 18 DGX H100
    // nodes an expert group that wide has to cross InfiniBand.
    void expertGroupsReachAcrossTheRackWhereTheyPay()
    {
        const auto model = manyExperts(72);
        const Cluster nvl72 = testCluster("gb200-nvl72x2");
        const std::shared_ptr<const SearchOutcome> outcome = SearchSession(model, megatronOn(nvl72, 2048)).run();
        const std::shared_ptr<const PlanCandidate> best = outcome->best();
        QVERIFY(best);
        QVERIFY(best->memoryBytes() <= outcome->memoryLimitBytes);
        const int ep = expertParallelDegree(best->plan);
        QVERIFY2(ep > 8, std::to_string(ep).c_str());
        QCOMPARE(72 % ep, 0);  // whole experts per rank, whole groups per rack
        for (const GroupSpan span : expertSpans(best->plan, nvl72))
            QCOMPARE(span, GroupSpan::IntraNode);

        QVERIFY(outcome->widthComparison);
        const GroupWidthComparison& why = *outcome->widthComparison;
        QCOMPARE(why.nodeGpus, 4);
        QCOMPARE(why.width, widestGroup(best->plan));
        QVERIFY(why.width >= ep);
        QVERIFY(why.insideNode);
        QVERIFY(widestGroup(why.insideNode->plan) <= 4);
        QVERIFY(why.insideNode->stepSeconds() > best->stepSeconds());

        // On DGX H100 nodes a group that wide crosses InfiniBand. Whichever side of a node
        // the search's groups keep to, the comparison says what the other side costs.
        const Cluster dgx = testCluster("dgx-h100x1").withNodes(18);
        const std::shared_ptr<const SearchOutcome> h100 = SearchSession(model, megatronOn(dgx, 2048)).run();
        const std::shared_ptr<const PlanCandidate> h100Best = h100->best();
        QVERIFY(h100Best);
        QVERIFY(h100->widthComparison);
        QCOMPARE(h100->widthComparison->nodeGpus, 8);
        if (expertParallelDegree(h100Best->plan) > 8) {
            const std::vector<GroupSpan> spans = expertSpans(h100Best->plan, dgx);
            QVERIFY(std::find(spans.begin(), spans.end(), GroupSpan::IntraNode) == spans.end() ||
                    spans.size() > 1);
            QVERIFY(h100->widthComparison->insideNode);
            QVERIFY(h100->widthComparison->insideNode->stepSeconds() > h100Best->stepSeconds());
        } else {
            QVERIFY(h100->widthComparison->beyondNode);
            QVERIFY(h100->widthComparison->beyondNode->stepSeconds() > h100Best->stepSeconds());
        }
    }

    // A dense Llama-3-70B-shaped model (4 of its layers; 8 key-value heads, so tensor
    // groups of 1, 2, 4 or 8) over every mesh of 144 GPUs: on two NVL72 racks and on 18
    // DGX H100 alike the search keeps tensor and context groups inside a node (FSDP's
    // gathers inside a rack already run at NVLink rate, a tensor group's traffic per GPU
    // grows with its width), and says why: the best plan with a group wider than a node
    // (over a rack's trays, or over InfiniBand) is slower.
    void denseGroupsKeepToANodeAndSayWhy()
    {
        const auto model = std::make_shared<const FoldedModel>(foldSynthPreset("llama3-70b", 4));
        for (const char* name : {"gb200-nvl72x2", "dgx-h100x1"}) {
            const Cluster cluster = std::string(name) == "dgx-h100x1" ? testCluster(name).withNodes(18)
                                                                      : testCluster(name);
            QCOMPARE(cluster.deviceCount(), 144);
            const std::shared_ptr<const SearchOutcome> outcome =
                SearchSession(model, megatronOn(cluster, 8192, true)).run();
            const std::shared_ptr<const PlanCandidate> best = outcome->best();
            QVERIFY(best);
            QVERIFY2(widestGroup(best->plan) <= cluster.gpusPerNode, name);
            QVERIFY(outcome->widthComparison);
            const GroupWidthComparison& why = *outcome->widthComparison;
            QVERIFY(!why.reachesBeyondNode());
            QCOMPARE(why.nodeGpus, cluster.gpusPerNode);
            QVERIFY2(why.beyondNode, name);
            QVERIFY(widestGroup(why.beyondNode->plan) > cluster.gpusPerNode);
            QVERIFY2(why.beyondNode->stepSeconds() > best->stepSeconds(), name);
        }
    }

    // 16 experts over 144 GPUs: groups of 16 consecutive ranks would put 8 GPUs in each of
    // two racks for one group and 16 in one for the others; such a stage mesh has no
    // even placement on 72-GPU domains, so the layout is left out (it used to stop the
    // whole search) and the plan spreads the experts 8 or fewer ways.
    void expertGroupsThatStraddleRacksAreLeftOut()
    {
        const auto model = manyExperts(16);
        const Cluster nvl72 = testCluster("gb200-nvl72x2");
        const std::shared_ptr<const SearchOutcome> outcome = SearchSession(model, megatronOn(nvl72, 1024)).run();
        QVERIFY(outcome->best());
        QVERIFY(expertParallelDegree(outcome->best()->plan) != 16);
    }
};

QTEST_APPLESS_MAIN(NvlinkDomainSearchTest)
#include "NvlinkDomainSearchTest.moc"
