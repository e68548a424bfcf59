// Invariants every price keeps (issue 25, "Invariants that every price keeps"), checked
// over generated models (GPT, Llama with grouped-query attention, a mixture of experts),
// meshes of one to three axes on two DGX H100 nodes, the expert plans and seeded random
// plans (every node's split on every axis drawn from its legal splits):
// - no device computes faster than its peak: MFU <= 100 %, and with every matmul at the
//   GEMM share (unfused attention, nothing halved) MFU <= that share;
// - no op is cheaper than its FLOPs spread over every device at the peak;
// - the devices together hold at least one 16-bit copy of the parameters;
// - renaming the mesh axes changes no price;
// - data parallelism over 16 GPUs prices the same however the mesh factors it ([16],
//   [2, 8], [4, 4], [8, 2], [2, 2, 4]): DDP and FSDP run one collective over the flattened
//   data mesh, not one per axis;
// - an expert split's ranks divide the expert count (else the plan is refused), and
//   every axis an accepted expert split uses pays for moving the tokens (an all-to-all
//   from split tokens, a gather back when the axis holds every token);
// - no op moves negative bytes or takes negative time, fused or run op by op (eager),
//   also where a view outside the experts reads what an expert made (as an ONNX export
//   reshapes the experts' outputs before it combines them).
#include "FoldedTestModel.h"
#include "TestInitializer.h"
#include "base/Error.h"
#include "graph/GraphBuilder.h"
#include "cost/AttentionKernelNames.h"
#include "cost/CostModel.h"
#include "cost/Throughput.h"
#include "plan/ExpertPlans.h"

#include <QTest>

#include <cmath>
#include <optional>
#include <random>

using namespace tapestry;
using namespace tapestry::test;

namespace {

struct Generated {
    const char* name;
    ModelSpec spec;
};

std::vector<Generated> generatedModels()
{
    ModelSpec gpt = findSynthPreset("gpt2-small")->spec;
    gpt.layers = 2;
    gpt.hidden = 512;
    gpt.heads = 8;
    gpt.kvHeads = 8;
    gpt.ffn = 2048;
    ModelSpec llama = findSynthPreset("llama3-8b")->spec;
    llama.layers = 2;
    llama.hidden = 1024;
    llama.heads = 16;
    llama.kvHeads = 4;
    llama.ffn = 2816;
    llama.vocab = 32000;
    ModelSpec moe = findSynthPreset("mixtral-8x7b")->spec;
    moe.layers = 2;
    moe.hidden = 512;
    moe.heads = 8;
    moe.kvHeads = 2;
    moe.ffn = 1024;
    moe.vocab = 32000;
    return {{"gpt", gpt}, {"llama-gqa", llama}, {"moe-8x2", moe}};
}

const std::vector<std::vector<MeshAxis>>& meshes()
{
    static const std::vector<std::vector<MeshAxis>> all{
        {{"a", 16}}, {{"a", 2}, {"b", 8}}, {{"a", 4}, {"b", 4}}, {{"a", 8}, {"b", 2}}, {{"a", 2}, {"b", 2}, {"c", 4}}};
    return all;
}

// Every node's split on every axis drawn from its legal splits; the expert split only
// inside experts (elsewhere the plan would only be refused).
Plan randomPlan(const CostModel& costs, const CoarseGraph& coarse, const std::vector<MeshAxis>& axes,
                std::mt19937& random)
{
    Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, coarse, axes);
    plan.name = "random";
    for (const CoarseNode& node : coarse.nodes) {
        std::vector<AxisSplit> legal = legalSplits(node.kind);
        if (costs.facts(node.id).experts == 0)
            std::erase(legal, AxisSplit::Expert);
        for (AxisSplit& split : plan.strategies[node.id.index()].axes)
            split = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(random)];
    }
    return plan;
}

// A mixture-of-experts layer as an ONNX export may write it: a router (TopK of 2 over 4
// experts) in scope "moe", four experts "moe/experts.N" of one [8, 8] matmul each, and a
// combine module of its own ("combine", so that the coarsening leaves it outside the
// experts' nodes) that reshapes each expert's output (a view) and sums them; the first
// expert's view is read twice (by the sum and a residual), so its gradients are summed.
FoldedModel moeWithViewsOfTheExperts()
{
    GraphBuilder b;
    const auto hidden = [](std::int64_t width) {
        return TensorShape({Dimension::symbolic("batch"), Dimension::symbolic("seq"), Dimension::known(width)});
    };
    const auto initializer = [&](const std::string& name, std::vector<std::int64_t> dims, DataType dtype) {
        b.addInitializer(testInitializer(name, dtype, std::move(dims)));
    };
    b.addInput("x", DataType::Float32, hidden(8));
    initializer("router", {8, 4}, DataType::Float32);
    initializer("k", {1}, DataType::Int64);
    initializer("same_shape", {3}, DataType::Int64);
    initializer("out", {8, 8}, DataType::Float32);
    const ScopePath moe({"moe"});
    const ScopePath combine({"combine"});
    b.addOp("MatMul", "gate", {"x", "router"}, {"logits"}, {}, moe);
    b.setTensorType("logits", DataType::Float32, hidden(4));
    b.addOp("TopK", "top", {"logits", "k"}, {"chosen", "experts"}, {{"axis", std::int64_t{-1}}}, moe);
    b.setTensorType("chosen", DataType::Float32, hidden(2));
    b.setTensorType("experts", DataType::Int64, hidden(2));
    std::vector<std::string> views;
    for (int e = 0; e < 4; ++e) {
        const std::string n = std::to_string(e);
        initializer("w" + n, {8, 8}, DataType::Float32);
        b.addOp("MatMul", "expert" + n, {"x", "w" + n}, {"y" + n}, {}, ScopePath({"moe", "experts." + n}));
        b.setTensorType("y" + n, DataType::Float32, hidden(8));
        b.addOp("Reshape", "view" + n, {"y" + n, "same_shape"}, {"r" + n}, {}, combine);
        b.setTensorType("r" + n, DataType::Float32, hidden(8));
        views.push_back("r" + n);
    }
    b.addOp("Sum", "sum", views, {"mixed"}, {}, combine);
    b.setTensorType("mixed", DataType::Float32, hidden(8));
    b.addOp("Add", "residual", {"mixed", "r0"}, {"h"}, {}, combine);
    b.setTensorType("h", DataType::Float32, hidden(8));
    b.addOp("MatMul", "output", {"h", "out"}, {"o"});
    b.setTensorType("o", DataType::Float32, hidden(8));
    b.markOutput("o");
    return foldModel(b.finish());
}

}  // namespace

class PriceInvariantsTest : public QObject {
    Q_OBJECT

private slots:
    void everyPriceKeepsTheInvariants()
    {
        const Cluster cluster = testCluster("dgx-h100x2");
        std::mt19937 random(25);
        int priced = 0;
        int refused = 0;
        int expertSplits = 0;  // priced plans with an expert split
        for (const Generated& generated : generatedModels()) {
            const FoldedModel m = foldModel(synthesizeModel(generated.spec, generated.name));
            double parameters = 0;
            for (const AttentionKernel attention :
                 {AttentionKernel::FlashAttention2, AttentionKernel::Cudnn, AttentionKernel::Triton, AttentionKernel::Unfused}) {
                for (const std::vector<MeshAxis>& axes : meshes()) {
                    const DeviceMesh mesh(axes, cluster);
                    std::vector<MeshAxis> renamed = axes;
                    for (std::size_t a = 0; a < renamed.size(); ++a)
                        renamed[a].name = "renamed" + std::to_string(renamed.size() - a);
                    const DeviceMesh renamedMesh(renamed, cluster);
                    Workload w = workload(64, 1024);
                    w.microBatch = 2;
                    w.attention = attention;
                    const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
                    const CostModel renamedCosts(m.graph(), m.coarse, m.families, cluster, renamedMesh, w);
                    parameters = 0;
                    for (const CoarseNode& node : m.coarse.nodes)
                        parameters += costs.facts(node.id).parameterElements;
                    std::vector<Plan> plans;
                    for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron,
                                                      ExpertPlanKind::MegatronSequenceParallel,
                                                      ExpertPlanKind::RingAttention, ExpertPlanKind::Ulysses})
                        plans.push_back(makeExpertPlan(kind, m.coarse, axes));
                    for (int i = 0; i < 30; ++i)
                        plans.push_back(randomPlan(costs, m.coarse, axes, random));
                    for (const Plan& plan : plans) {
                        bool acceptable = true;
                        for (const CoarseNode& node : m.coarse.nodes)
                            acceptable = acceptable && costs.accepts(node.id, plan.strategy(node.id));
                        PlanEvaluation e;
                        try {
                            e = costs.evaluate(plan);
                        } catch (const Error& error) {
                            // Only the expert rule or a plan that does not fit the graph refuses.
                            QVERIFY2(error.code() == ErrorCode::InvalidPlan, error.what());
                            ++refused;
                            continue;
                        }
                        QVERIFY2(acceptable, qPrintable(QStringLiteral("%1: a plan accepts() refuses was priced")
                                                            .arg(QString::fromLatin1(generated.name))));
                        ++priced;
                        const QString where = QStringLiteral("%1 on %2, %3, %4")
                                                  .arg(QString::fromLatin1(generated.name),
                                                       QString::fromStdString(mesh.toString()),
                                                       QString::fromStdString(plan.name),
                                                       QString::fromLatin1(attentionKernelName(attention)));
                        const double step = e.total.time.stepSeconds();
                        QVERIFY2(step > 0, qPrintable(where));
                        const double mfu =
                            throughputOf(costs, m.coarse, cluster.gpu.peakFlopsPerSecond, step).modelFlopsUtilization;
                        QVERIFY2(mfu <= 1.0, qPrintable(where + QStringLiteral(": MFU %1").arg(mfu)));
                        if (attention == AttentionKernel::Unfused)
                            QVERIFY2(mfu <= cluster.gpu.achievableFraction,
                                     qPrintable(where + QStringLiteral(": MFU %1").arg(mfu)));
                        const double devices = mesh.deviceCount();
                        for (const CoarseNode& node : m.coarse.nodes) {
                            const CostModel::NodeFacts& facts = costs.facts(node.id);
                            // Causal attention computes half its scores; an expert its routed share.
                            const double share = (node.kind == CoarseNodeKind::BatchedMatMul ? 0.5 : 1.0) *
                                                 std::min(1.0, facts.routedShare);
                            const double floor = 3 * facts.flops * share / (devices * cluster.gpu.peakFlopsPerSecond);
                            QVERIFY2(e.perNode[node.id.index()].time.computeSeconds >= floor * (1 - 1e-9),
                                     qPrintable(where + QStringLiteral(": node %1 beats the peak")
                                                            .arg(QString::fromStdString(node.name))));
                        }
                        QVERIFY2(e.total.memory.parameters * devices >= 2 * parameters * (1 - 1e-9),
                                 qPrintable(where + QStringLiteral(": parameters %1 per device")
                                                        .arg(e.total.memory.parameters)));
                        Plan renamedPlan = plan;
                        renamedPlan.mesh = renamed;
                        const PlanEvaluation r = renamedCosts.evaluate(renamedPlan);
                        QVERIFY2(r.total.time.stepSeconds() == step, qPrintable(where + QStringLiteral(": renamed")));
                        QVERIFY2(r.total.memory.total() == e.total.memory.total(), qPrintable(where));
                        // Every axis an expert split uses moves the tokens to the experts or back.
                        for (std::size_t a = 0; a < axes.size(); ++a) {
                            bool expertAxis = false;
                            for (const CoarseNode& node : m.coarse.nodes)
                                expertAxis = expertAxis || plan.strategy(node.id).axes[a] == AxisSplit::Expert;
                            double routing = 0;
                            for (const ParallelTransfer& t : e.parallelTransfers) {
                                if (t.axis == a && (t.purpose == ParallelTransfer::Purpose::ExpertDispatch ||
                                                    t.purpose == ParallelTransfer::Purpose::ExpertCombine))
                                    routing += t.seconds();
                            }
                            expertSplits += expertAxis ? 1 : 0;
                            if (expertAxis)
                                QVERIFY2(routing > 0, qPrintable(where + QStringLiteral(": expert axis %1 moves no "
                                                                                        "tokens").arg(a)));
                        }
                    }
                }
            }
        }
        qInfo("%d plans priced (%d expert axes among them), %d refused", priced, expertSplits, refused);
        QVERIFY(priced > 600);
        QVERIFY(expertSplits > 20);
        QVERIFY(refused > 0);
    }

    void noOpMovesNegativeBytes()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"a", 8}}, cluster);
        std::vector<std::pair<std::string, FoldedModel>> models;
        for (const Generated& generated : generatedModels())
            models.emplace_back(generated.name, foldModel(synthesizeModel(generated.spec, generated.name)));
        models.emplace_back("moe with views of the experts", moeWithViewsOfTheExperts());
        int viewsOfExperts = 0;
        for (const auto& [name, m] : models) {
            for (const SavedActivations saved : {SavedActivations::Fused, SavedActivations::Eager}) {
                for (const Recomputation recompute : {Recomputation::None, Recomputation::Full}) {
                    Workload w = workload(16, 1024);
                    w.savedActivations = saved;
                    w.recompute = recompute;
                    const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
                    const QString where = QStringLiteral("%1, %2 activations, recompute %3")
                                              .arg(QString::fromStdString(name))
                                              .arg(QLatin1String(saved == SavedActivations::Eager ? "eager" : "fused"))
                                              .arg(QLatin1String(recompute == Recomputation::Full ? "full" : "none"));
                    for (const Op& op : m.graph().ops()) {
                        const CostModel::MovedBytes moved = costs.memoryBoundBytes(op.id);
                        QVERIFY2(moved.forward >= 0 && moved.backward >= 0,
                                 qPrintable(where + QStringLiteral(": %1 moves %2 forward, %3 backward")
                                                        .arg(QString::fromStdString(op.name))
                                                        .arg(moved.forward)
                                                        .arg(moved.backward)));
                        const OpId maker = op.inputs.empty() ? OpId{} : m.graph().tensor(op.inputs[0]).producer;
                        const bool readsAnExpert = op.type == "Reshape" && maker.isValid() &&
                                                   costs.facts(m.coarse.nodeOf[maker.index()]).experts > 0 &&
                                                   costs.facts(m.coarse.nodeOf[op.id.index()]).experts == 0;
                        viewsOfExperts += readsAnExpert ? 1 : 0;
                    }
                    const PlanEvaluation e =
                        costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
                    for (std::size_t op = 0; op < e.perOp.size(); ++op) {
                        const TimeBreakdown& t = e.perOp[op].time;
                        QVERIFY2(t.computeSeconds >= 0 && t.recomputeSeconds >= 0 && t.optimizerSeconds >= 0,
                                 qPrintable(where + QStringLiteral(": op %1 takes negative time").arg(op)));
                    }
                }
            }
        }
        // The hand-built layer's four views, in each of the four workloads.
        QCOMPARE(viewsOfExperts, 4 * 4);
    }

    void dataParallelPricesTheSameHoweverTheMeshFactorsIt()
    {
        const Cluster cluster = testCluster("dgx-h100x2");
        int compared = 0;
        for (const Generated& generated : generatedModels()) {
            const FoldedModel m = foldModel(synthesizeModel(generated.spec, generated.name));
            for (const int zero : {0, 1, 2, 3}) {
                for (const ZeroImplementation implementation : {ZeroImplementation::Fsdp, ZeroImplementation::DeepSpeed}) {
                    if (zero < 3 && implementation == ZeroImplementation::DeepSpeed)
                        continue;
                    Workload w = workload(32, 1024);
                    w.zeroStage = zero;
                    w.zeroImplementation = implementation;
                    std::optional<double> step;
                    std::optional<double> memory;
                    for (const std::vector<MeshAxis>& axes : meshes()) {
                        const DeviceMesh mesh(axes, cluster);
                        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
                        const PlanEvaluation e =
                            costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, axes));
                        const QString where = QStringLiteral("%1 ZeRO %2 on %3 axes")
                                                  .arg(QString::fromLatin1(generated.name))
                                                  .arg(zero)
                                                  .arg(axes.size());
                        if (!step) {
                            step = e.total.time.stepSeconds();
                            memory = e.total.memory.total();
                            QVERIFY(e.total.time.dataParallelSeconds > 0);
                            continue;
                        }
                        QVERIFY2(std::abs(e.total.time.stepSeconds() - *step) <= 1e-9 * *step,
                                 qPrintable(where + QStringLiteral(": %1 s, one axis %2 s")
                                                        .arg(e.total.time.stepSeconds())
                                                        .arg(*step)));
                        QVERIFY2(std::abs(e.total.memory.total() - *memory) <= 1e-9 * *memory, qPrintable(where));
                        ++compared;
                    }
                }
            }
        }
        QCOMPARE(compared, 3 * 5 * 4);
    }
};

QTEST_APPLESS_MAIN(PriceInvariantsTest)
#include "PriceInvariantsTest.moc"
