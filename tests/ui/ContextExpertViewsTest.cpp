// Context and expert parallelism in the GUI. The inspector's "Ring Attention and
// All-to-Alls" tab lists, per layer, what the cost model prices: on the README's Mixtral
// setup (4 DGX-H100, mesh 4x8, 64 x 4096 tokens at micro-batch 1) a data-parallel plan
// splits the batch over all 32 GPUs (2 micro-steps, 4096 tokens per rank): each expert
// layer sends 67.1 MB per all-to-all, 4 per micro-step, with the experts over a node's
// 8 GPUs 4 x 2 x ((7/8) S / B + 7 alpha) = 1.4376 ms per step; with ring attention
// inside a node (16 micro-steps, 512 tokens per rank) and the experts over the 4 nodes
// (the searched plan) 4 x 16 x ((3/4) S / B + 3 alpha) = 9.5406 ms (the README's number); ring attention on Llama over
// cp = 4 passes K and V (1024 x 2 x 32 bf16 each) around the ring three times per layer
// (forward, backward, gradients back), hidden under attention when it can be. The graph
// views colour attention's core apart when it runs context parallel (ring or Ulysses)
// and keep "Sequence" for sequence-split norms and projections. The plan editor offers
// the sequence split on attention and the expert split on the experts' linear layers
// only, each with the step time of the plan it would give.
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "ScratchGuiEnvironment.h"
#include "graphview/GraphViewContent.h"
#include "history/HistoryRecorder.h"
#include "plan/ExpertPlans.h"
#include "plans/NodeCostModel.h"
#include "plans/ParallelTrafficModel.h"
#include "plans/PlanEditPanel.h"
#include "plans/PlanEditor.h"
#include "plans/PlanInspector.h"
#include "plans/PlanOverlay.h"
#include "plans/StrategyChoicesModel.h"
#include "search/PlanPricing.h"
#include "search/StrategyChoices.h"

#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <algorithm>

using namespace tapestry;
using namespace tapestry::test;

namespace {

constexpr int kTimeoutMs = 60000;

double allToAll(int n, double bytes, const LinkSpec& link)
{
    return static_cast<double>(n - 1) / n * bytes / link.bytesPerSecond + (n - 1) * link.latencySeconds;
}

QString milliseconds(double seconds)
{
    return QStringLiteral("%L1").arg(seconds * 1e3, 0, 'f', 4);
}

// The README's Mixtral setup on a two-layer Mixtral 8x7B.
SearchSetup mixtralSetup()
{
    SearchSetup setup;
    setup.cluster = testCluster("dgx-h100x4");
    setup.workload = workload(64, 4096);
    setup.workload.microBatch = 1;
    return setup;
}

// `base` (data parallel unless said), the experts (linear layers and activation) spread over `axis`.
Plan expertsOver(const PlanPricing& pricing, std::size_t axis, ExpertPlanKind base = ExpertPlanKind::DataParallel)
{
    const CoarseGraph& coarse = pricing.folded()->coarse;
    Plan plan = makeExpertPlan(base, coarse, pricing.mesh().axes());
    for (const CoarseNode& node : coarse.nodes) {
        if (pricing.costs().facts(node.id).experts > 0)
            plan.strategies[node.id.index()].axes[axis] = AxisSplit::Expert;
    }
    return plan;
}

const CoarseNode& nodeNamed(const FoldedModel& folded, const std::string& name)
{
    const auto it = std::find_if(folded.coarse.nodes.begin(), folded.coarse.nodes.end(),
                                 [&](const CoarseNode& node) { return node.name == name; });
    if (it == folded.coarse.nodes.end())
        throw std::runtime_error("no node " + name);
    return *it;
}

}  // namespace

class ContextExpertViewsTest : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const FoldedModel> mixtral_;
    std::shared_ptr<const FoldedModel> llama_;

    std::shared_ptr<const PlanPricing> llamaPricing(const char* cluster, std::vector<MeshAxis> mesh,
                                                    std::int64_t sequence, bool overlap)
    {
        SearchSetup setup;
        setup.cluster = testCluster(cluster);
        setup.workload = workload(2, sequence);
        setup.workload.overlap = overlap;
        return std::make_shared<const PlanPricing>(llama_, setup, mesh);
    }

private slots:
    void initTestCase()
    {
        useScratchGuiEnvironment(QStringLiteral("ContextExpertViewsTest"));
        mixtral_ = std::make_shared<const FoldedModel>(foldSynthPreset("mixtral-8x7b", 2));
        llama_ = std::make_shared<const FoldedModel>(foldTestFile("llama.ts.stripped.onnx"));
    }

    void inspectorShowsEachLayersAllToAllsAsTheClosedForm()
    {
        const SearchSetup setup = mixtralSetup();
        const PlanPricing pricing(mixtral_, setup, {{"dp", 4}, {"tp", 8}});
        const auto candidate = pricing.price(expertsOver(pricing, 1));
        PlanInspector inspector;
        inspector.resize(1400, 500);
        inspector.show();
        inspector.setPlan(mixtral_, candidate);
        QVERIFY(inspector.tabs()->isTabEnabled(inspector.tabs()->indexOf(inspector.trafficPane())));
        inspector.tabs()->setCurrentWidget(inspector.trafficPane());

        // The plan splits the batch on both axes: 64 sequences / (micro-batch 1 x 32 ranks)
        // = 2 micro-steps; a rank's 4096 tokens, each sent to top-2 experts as a 4096-wide
        // bf16 row, with its bf16 routing weight.
        QCOMPARE(candidate->evaluation.microBatches, 2);
        const double perCall = 4096.0 * 4096 * 2 * 2;
        QCOMPARE(perCall, 67108864.0);
        const double weightsPerCall = 4096.0 * 2 * 2;
        const double call = allToAll(8, perCall, setup.cluster.intraNode);
        const double weightsCall = allToAll(8, weightsPerCall, setup.cluster.intraNode);
        const double layer = 4 * 2 * call + 4 * weightsCall;

        auto* table = inspector.trafficPane()->findChild<QTableView*>(QStringLiteral("inspectorTraffic"));
        QVERIFY(table);
        const QAbstractItemModel& shown = *table->model();
        QCOMPARE(shown.rowCount(), 6);  // 2 layers x (dispatch, combine, weights)
        using Column = ParallelTrafficModel::Column;
        const QString dispatch = QStringLiteral("Expert dispatch: tokens to their experts");
        const QString combine = QStringLiteral("Expert combine: expert outputs back");
        const QString weights = QStringLiteral("Expert weights: each copy's routing weight");
        for (int row = 0; row < 6; ++row) {
            auto text = [&](int column) { return shown.index(row, column).data().toString(); };
            QCOMPARE(text(Column::LayerColumn), row < 3 ? QStringLiteral("model/layers.0") : QStringLiteral("model/layers.1"));
            const QString purpose = text(Column::PurposeColumn);
            QVERIFY2(purpose == dispatch || purpose == combine || purpose == weights, qPrintable(purpose));
            QCOMPARE(text(Column::CollectiveColumn), QStringLiteral("all-to-all"));
            QCOMPARE(text(Column::AxisColumn), QStringLiteral("tp (8)"));
            QCOMPARE(text(Column::LinksColumn), QStringLiteral("8 GPUs, intra-node"));
            // Forward and backward, 2 micro-steps; the weights as 8 experts' eighths of a call.
            QCOMPARE(text(Column::CallsColumn), QStringLiteral("4"));
            QCOMPARE(text(Column::BytesColumn), purpose == weights ? QStringLiteral("0.016") : QStringLiteral("67.109"));
            QVERIFY(near(shown.index(row, Column::TimeColumn).data(ParallelTrafficModel::SortRole).toDouble(),
                         4 * (purpose == weights ? weightsCall : call) * 1e3));
            QCOMPARE(text(Column::HiddenColumn), QStringLiteral("0.0000"));
            QCOMPARE(text(Column::ExposedColumn), text(Column::TimeColumn));
        }
        const QString summary = inspector.trafficSummary()->text();
        QVERIFY2(summary.contains(QStringLiteral("In model/layers.0: ring attention 0.0000 ms, Ulysses 0.0000 ms, experts %1 ms.")
                                      .arg(milliseconds(layer))),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("expert all-to-alls %1 ms (these two never hidden)").arg(milliseconds(2 * layer))),
                 qPrintable(summary));

        // The same numbers are the plan's all-to-all time: nothing else moves tokens.
        QVERIFY(near(candidate->evaluation.total.time.byCollective[static_cast<std::size_t>(CollectiveKind::AllToAll)],
                     2 * layer));

        // The experts over the 4 nodes instead and ring attention inside a node, as the
        // search places them: a rank's 512 tokens of its sequence chunk cross the
        // inter-node links.
        inspector.setPlan(mixtral_, pricing.price(expertsOver(pricing, 0, ExpertPlanKind::RingAttention)));
        QCOMPARE(shown.rowCount(), 2 * (3 + 3));  // per layer 3 ring rows, dispatch, combine and weights
        QCOMPARE(shown.index(3, Column::PurposeColumn).data().toString(),
                 QStringLiteral("Expert dispatch: tokens to their experts"));
        QCOMPARE(shown.index(3, Column::AxisColumn).data().toString(), QStringLiteral("dp (4)"));
        QCOMPARE(shown.index(3, Column::LinksColumn).data().toString(), QStringLiteral("4 GPUs, inter-node"));
        QCOMPARE(shown.index(3, Column::BytesColumn).data().toString(), QStringLiteral("8.389"));
        const double acrossNodes = 4 * 16 * allToAll(4, perCall / 8, setup.cluster.interNode) +
                                   2 * 16 * allToAll(4, weightsPerCall / 8, setup.cluster.interNode);
        QCOMPARE(milliseconds(acrossNodes), QStringLiteral("10.1176"));  // the README's number
        QVERIFY2(inspector.trafficSummary()->text().contains(QStringLiteral("experts 10.1176 ms.")),
                 qPrintable(inspector.trafficSummary()->text()));

        // A plan without context or expert parallelism has nothing to list.
        inspector.setPlan(mixtral_, pricing.price(makeExpertPlan(ExpertPlanKind::Megatron, mixtral_->coarse,
                                                                 pricing.mesh().axes())));
        QCOMPARE(shown.rowCount(), 0);
        QVERIFY(!inspector.tabs()->isTabEnabled(inspector.tabs()->indexOf(inspector.trafficPane())));
        QCOMPARE(inspector.tabs()->currentIndex(), 0);
    }

    void inspectorShowsRingAttentionAndWhatAttentionHides()
    {
        // No overlap: all of it exposed. K and V of one sequence per dp rank, each
        // 1024 x 2 KV heads x 32 x bf16, over cp = 4 inside a node.
        const auto pricing = llamaPricing("dgx-h100x1", {{"dp", 2}, {"cp", 4}}, 1024, false);
        const auto candidate =
            pricing->price(makeExpertPlan(ExpertPlanKind::RingAttention, llama_->coarse, pricing->mesh().axes()));
        ParallelTrafficModel model;
        model.setPlan(llama_, candidate);
        const auto layers = static_cast<int>(llama_->families.families.front().multiplicity());
        QCOMPARE(model.rowCount(), 3 * layers);
        const double kv = 1024.0 * 2 * 32 * 2;
        const double pass = ringGatherOrScatter(4, kv, testCluster("dgx-h100x1").intraNode);
        const QStringList purposes{QStringLiteral("Ring attention: keys and values, forward"),
                                   QStringLiteral("Ring attention: keys and values, backward"),
                                   QStringLiteral("Ring attention: their gradients, backward")};
        const QStringList collectives{QStringLiteral("all-gather"), QStringLiteral("all-gather"),
                                      QStringLiteral("reduce-scatter")};
        for (int row = 0; row < 3; ++row) {
            auto text = [&](int column) { return model.index(row, column).data().toString(); };
            QCOMPARE(text(ParallelTrafficModel::LayerColumn), QStringLiteral("model/layers.0"));
            QCOMPARE(text(ParallelTrafficModel::PurposeColumn), purposes[row]);
            QCOMPARE(text(ParallelTrafficModel::CollectiveColumn), collectives[row]);
            QCOMPARE(text(ParallelTrafficModel::AxisColumn), QStringLiteral("cp (4)"));
            QCOMPARE(text(ParallelTrafficModel::LinksColumn), QStringLiteral("4 GPUs, intra-node"));
            QCOMPARE(model.index(row, ParallelTrafficModel::BytesColumn).data(ParallelTrafficModel::SortRole).toDouble(),
                     kv / 1e6);
            QCOMPARE(text(ParallelTrafficModel::CallsColumn), QStringLiteral("2"));  // K at QKᵀ, V at ·V
            QVERIFY(near(model.rows()[static_cast<std::size_t>(row)].seconds, 2 * pass));
            QCOMPARE(model.rows()[static_cast<std::size_t>(row)].exposedSeconds, model.rows()[static_cast<std::size_t>(row)].seconds);
        }

        // Ulysses on GPT-2 small's width (h = 768, no grouped-query attention): per layer
        // q, k, v to heads and the output back, each an all-to-all of the rank's b*s*h/cp
        // bf16 shard, as much again backward; never hidden.
        const auto gpt2 = std::make_shared<const FoldedModel>(foldSynthPreset("gpt2-small", 3));
        SearchSetup setup;
        setup.cluster = testCluster("dgx-h100x1");
        setup.workload = workload(2, 1024);
        const PlanPricing gpt2Pricing(gpt2, setup, {{"dp", 2}, {"cp", 4}});
        model.setPlan(gpt2, gpt2Pricing.price(makeExpertPlan(ExpertPlanKind::Ulysses, gpt2->coarse,
                                                             gpt2Pricing.mesh().axes())));
        QCOMPARE(model.rowCount(), 2 * 3);
        const double shard = 1024.0 * 768 * 2 / 4;
        for (int row = 0; row < 2; ++row) {
            auto text = [&](int column) { return model.index(row, column).data().toString(); };
            QCOMPARE(text(ParallelTrafficModel::PurposeColumn),
                     row == 0 ? QStringLiteral("Ulysses: sequence and heads swapped, forward")
                              : QStringLiteral("Ulysses: their gradients swapped back, backward"));
            QCOMPARE(text(ParallelTrafficModel::CollectiveColumn), QStringLiteral("all-to-all"));
            QCOMPARE(text(ParallelTrafficModel::CallsColumn), QStringLiteral("4"));
            QCOMPARE(model.index(row, ParallelTrafficModel::BytesColumn).data(ParallelTrafficModel::SortRole).toDouble(),
                     shard / 1e6);
            const ParallelTrafficModel::Row& listed = model.rows()[static_cast<std::size_t>(row)];
            QVERIFY(near(listed.seconds, 4 * allToAll(4, shard, setup.cluster.intraNode)));
            QCOMPARE(listed.exposedSeconds, listed.seconds);
        }

        // At 64k tokens across two nodes the chunk's attention hides the whole ring; what
        // shows is the attention slowed beside it (18.9 %: 0.189 / 1.189 of the ring).
        const auto longPricing = llamaPricing("dgx-h100x2", {{"cp", 2}, {"tp", 8}}, 65536, true);
        Plan ring = makeExpertPlan(ExpertPlanKind::RingAttention, llama_->coarse, longPricing->mesh().axes());
        for (NodeStrategy& s : ring.strategies) {
            s.axes[0] = s.axes[1];  // the sequence split on the outer axis, across the nodes
            s.axes[1] = AxisSplit::None;
        }
        model.setPlan(llama_, longPricing->price(ring));
        QCOMPARE(model.rowCount(), 3 * layers);
        for (const ParallelTrafficModel::Row& row : model.rows()) {
            QVERIFY(row.seconds > 0);
            QVERIFY(near(row.exposedSeconds, row.seconds * 0.189 / 1.189));
        }
        QCOMPARE(model.index(0, ParallelTrafficModel::LinksColumn).data().toString(), QStringLiteral("2 GPUs, inter-node"));
        const ParallelTrafficModel::Row& first = model.rows().front();
        QCOMPARE(model.index(0, ParallelTrafficModel::ExposedColumn).data(ParallelTrafficModel::SortRole).toDouble(),
                 first.exposedSeconds * 1e3);
        QCOMPARE(model.index(0, ParallelTrafficModel::HiddenColumn).data(ParallelTrafficModel::SortRole).toDouble(),
                 (first.seconds - first.exposedSeconds) * 1e3);
    }

    void graphColoursContextParallelAttentionApartFromSequenceSplits()
    {
        const auto pricing = llamaPricing("dgx-h100x1", {{"dp", 2}, {"cp", 4}}, 1024, true);
        const std::vector<MeshAxis>& mesh = pricing->mesh().axes();
        const CoarseNode& scores = nodeNamed(*llama_, "model/layers.0/self_attn/MatMul");
        const CoarseNode& query = nodeNamed(*llama_, "model/layers.0/self_attn/q_proj/MatMul");
        const CoarseNode& norm = nodeNamed(*llama_, "model/layers.0/input_layernorm");
        QCOMPARE(scores.kind, CoarseNodeKind::BatchedMatMul);
        auto classOf = [&](ExpertPlanKind kind, const CoarseNode& node) {
            const Plan plan = makeExpertPlan(kind, llama_->coarse, mesh);
            return PlanOverlay::classify(node.kind, plan.strategy(node.id),
                                         PlanOverlay::contextVariants(plan, llama_->coarse));
        };
        // Ring attention: the core splits the sequence; the projections around it too,
        // with their weights whole (sequence and batch: no 2D split).
        QCOMPARE(classOf(ExpertPlanKind::RingAttention, scores), StrategyClass::ContextParallel);
        QCOMPARE(classOf(ExpertPlanKind::RingAttention, query), StrategyClass::Sequence);
        // Ulysses: the core splits heads between sequence-split projections.
        QCOMPARE(classOf(ExpertPlanKind::Ulysses, scores), StrategyClass::ContextParallel);
        // Megatron-LM: heads split under tensor parallelism, norms sequence parallel.
        QCOMPARE(classOf(ExpertPlanKind::MegatronSequenceParallel, scores), StrategyClass::Head);
        QCOMPARE(classOf(ExpertPlanKind::MegatronSequenceParallel, norm), StrategyClass::Sequence);
        QCOMPARE(classOf(ExpertPlanKind::MegatronSequenceParallel, query), StrategyClass::Column);

        const QColor context = PlanOverlay::color(StrategyClass::ContextParallel);
        QVERIFY(context != PlanOverlay::color(StrategyClass::Sequence));
        const QList<GraphLegend::Entry> legend = PlanOverlay::legend();
        QVERIFY(std::any_of(legend.begin(), legend.end(), [&](const GraphLegend::Entry& entry) {
            return entry.color == context && entry.text == QStringLiteral("Context parallel attention");
        }));

        // The inspector's split cells: the core's cp cell is context parallel, its dp cell
        // data parallel; the box in the graph is drawn in that colour.
        const auto candidate =
            pricing->price(makeExpertPlan(ExpertPlanKind::RingAttention, llama_->coarse, mesh));
        NodeCostModel model;
        model.setPlan(llama_, candidate);
        const int row = static_cast<int>(scores.id.index());
        QCOMPARE(model.index(row, NodeCostModel::FirstSplitColumn + 1).data(Qt::DecorationRole).value<QColor>(), context);
        QCOMPARE(model.index(row, NodeCostModel::FirstSplitColumn).data(Qt::DecorationRole).value<QColor>(),
                 PlanOverlay::color(StrategyClass::DataParallel));
        const PlanOverlay overlay(llama_, candidate);
        QCOMPARE(overlay.colors({ViewNodeRef::Kind::Coarse, scores.id.index()}), QList<QColor>{context});
        const QString card = overlay.html({ViewNodeRef::Kind::Coarse, scores.id.index()});
        QVERIFY2(card.contains(QStringLiteral("Strategy: Context parallel attention (dp: batch, cp: sequence)")),
                 qPrintable(card));
        QVERIFY2(card.contains(QStringLiteral("Ring attention over cp (4): ")), qPrintable(card));
    }

    void editorOffersSequenceOnAttentionAndExpertOnExpertsWithTheirPrice()
    {
        auto pricing = std::make_shared<const PlanPricing>(mixtral_, mixtralSetup(),
                                                           std::vector<MeshAxis>{{"dp", 4}, {"tp", 8}});
        const Plan start = makeExpertPlan(ExpertPlanKind::DataParallel, mixtral_->coarse, pricing->mesh().axes());
        HistoryRecorder recorder;
        PlanEditor editor(&recorder);
        PlanEditPanel panel(&editor);
        panel.resize(900, 600);
        panel.show();
        editor.open(pricing, {pricing->price(start), {}});

        // The strategies the panel lists for a target, priced in the background.
        auto listed = [&](const EditTarget& target) {
            [&] {
                QVERIFY(panel.selectTarget(QString::fromStdString(target.name)));
                QTRY_VERIFY_WITH_TIMEOUT(!panel.isPricing() && panel.choicesModel()->choices() &&
                                             panel.choicesModel()->choices()->target.name == target.name,
                                         kTimeoutMs);
            }();
            return panel.choicesModel()->choices();
        };
        auto offers = [](const StrategyChoices& choices, AxisSplit split) {
            return std::find_if(choices.choices.begin(), choices.choices.end(), [&](const StrategyChoices::Choice& c) {
                return c.strategy.axes == AxisSplits{AxisSplit::Batch, split};
            });
        };
        const std::vector<EditTarget>& targets = editor.targets();
        auto targetNamed = [&](const std::string& tail) {
            const auto it = std::find_if(targets.begin(), targets.end(), [&](const EditTarget& t) {
                return t.name.size() >= tail.size() && t.name.compare(t.name.size() - tail.size(), tail.size(), tail) == 0;
            });
            if (it == targets.end()) {
                std::string names;
                for (const EditTarget& t : targets)
                    names += t.name + " ";
                throw std::runtime_error("no edit target ending in " + tail + " among " + names);
            }
            return *it;
        };

        // An expert's first linear layer: "batch, expert" under "Strategy (dp, tp)", priced as
        // the plan with it.
        const EditTarget w1 = targetNamed("experts.0/w1/MatMul");
        QCOMPARE(w1.kind, CoarseNodeKind::Linear);
        auto choices = listed(w1);
        QVERIFY(choices);
        auto expert = offers(*choices, AxisSplit::Expert);
        QVERIFY(expert != choices->choices.end());
        const double expertStep = pricing->price(withStrategy(start, w1, expert->strategy))->stepSeconds();
        QCOMPARE(expert->stepSeconds, expertStep);
        const int expertRow = static_cast<int>(expert - choices->choices.begin());
        QCOMPARE(panel.choicesModel()->index(expertRow, StrategyChoicesModel::StrategyColumn).data().toString(),
                 QStringLiteral("batch, expert"));
        QCOMPARE(panel.choicesModel()->headerData(StrategyChoicesModel::StrategyColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Strategy (dp, tp)"));
        QCOMPARE(panel.choicesModel()->index(expertRow, StrategyChoicesModel::StepColumn).data().toString(),
                 QStringLiteral("%L1").arg(expertStep * 1e3, 0, 'f', 2));
        QCOMPARE(panel.choicesModel()->index(expertRow, StrategyChoicesModel::StrategyColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("dp: batch, tp: expert\ntp: the experts spread over the axis, tokens sent by all-to-alls"));

        // The router's gate is no expert: no expert split offered.
        choices = listed(targetNamed("block_sparse_moe/gate/MatMul"));
        QVERIFY(choices);
        QVERIFY(offers(*choices, AxisSplit::Expert) == choices->choices.end());
        QVERIFY(offers(*choices, AxisSplit::Sequence) != choices->choices.end());

        // Attention's core: the sequence split (ring attention), priced likewise.
        const EditTarget core = targetNamed("self_attn/MatMul");
        QCOMPARE(core.kind, CoarseNodeKind::BatchedMatMul);
        choices = listed(core);
        QVERIFY(choices);
        const auto sequence = offers(*choices, AxisSplit::Sequence);
        QVERIFY(sequence != choices->choices.end());
        QCOMPARE(sequence->stepSeconds, pricing->price(withStrategy(start, core, sequence->strategy))->stepSeconds());
        const int sequenceRow = static_cast<int>(sequence - choices->choices.begin());
        QCOMPARE(panel.choicesModel()->index(sequenceRow, StrategyChoicesModel::StrategyColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("dp: batch, tp: sequence\ntp: ring attention, keys and values passed around the axis"));
        QVERIFY(offers(*choices, AxisSplit::Expert) == choices->choices.end());
    }
};

QTEST_MAIN(ContextExpertViewsTest)
#include "ContextExpertViewsTest.moc"
