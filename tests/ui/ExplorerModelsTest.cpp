// The explorer's item models under QAbstractItemModelTester: the search results list,
// the per-node cost table with its block filter, the plan comparison and the strategy
// choices, over the expert plans of the small
// Llama (llama.ts.stripped.onnx) on one DGX-H100 node with the mesh [2, 4].
#include "fold/FoldedModel.h"
#include "model/LoadedModel.h"
#include "plans/NodeCostFilterModel.h"
#include "plans/NodeCostModel.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"
#include "search/SearchResultsPanel.h"
#include "plans/PlanThroughput.h"
#include "plans/PlanDiffModel.h"
#include "plans/PlanOverlay.h"
#include "plans/PlanInspector.h"
#include "plans/PlanSummary.h"
#include "graphview/GraphViewContent.h"
#include "plans/StrategyChoicesModel.h"
#include "cluster/ClusterFile.h"
#include "plan/EditTargets.h"
#include "search/PlanComparison.h"
#include "search/PlanPricing.h"
#include "search/StrategyChoices.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"
#include "target/StackRules.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <algorithm>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTest>

#include <set>

using namespace tapestry;

class ExplorerModelsTest : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const SearchOutcome> results_;
    Cluster cluster_;

private slots:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        folded_ = std::make_shared<const FoldedModel>(foldModel(LoadedModel::load(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/llama.ts.stripped.onnx"))->graph));
        cluster_ = loadClusterPreset(std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "resources" / "clusters",
                                     "dgx-h100x1");
        const std::vector<MeshAxis> axes{{"dp", 2}, {"tp", 4}};
        const DeviceMesh mesh(axes, cluster_);
        // The export's own 1 x 16 tokens, where Megatron's weight split saves more than
        // data parallelism's activation split.
        Workload exported;
        exported.batch = 1;
        exported.sequence = 16;
        const CostModel costs(folded_->graph(), folded_->coarse, folded_->families, cluster_, mesh, exported);
        auto results = std::make_shared<SearchOutcome>();
        for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron}) {
            auto candidate = std::make_shared<PlanCandidate>();
            candidate->role = PlanCandidate::Role::Expert;
            candidate->plan = makeExpertPlan(kind, folded_->coarse, axes);
            candidate->evaluation = costs.evaluate(candidate->plan);
            candidate->meshText = mesh.toString();
            results->candidates.push_back(candidate);
        }
        results->hbmBytes = costs.hbmBytes();
        // A limit between the two plans' peaks: Megatron fits, data parallel does not.
        results->memoryLimitBytes =
            (results->candidates[0]->memoryBytes() + results->candidates[1]->memoryBytes()) / 2;
        QVERIFY(results->candidates[1]->memoryBytes() < results->candidates[0]->memoryBytes());
        results_ = results;
    }

    void resultsListShowsEachCandidate()
    {
        SearchResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.rowCount(), 0);
        model.setResults(results_);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(SearchResultsModel::ColumnCount));
        QCOMPARE(model.index(0, SearchResultsModel::PlanColumn).data().toString(), QStringLiteral("Data parallel"));
        QCOMPARE(model.index(1, SearchResultsModel::PlanColumn).data().toString(), QStringLiteral("Megatron-LM"));
        QCOMPARE(model.index(1, SearchResultsModel::OriginColumn).data().toString(), QStringLiteral("Expert reference"));
        QCOMPARE(model.index(1, SearchResultsModel::MeshColumn).data().toString(), QStringLiteral("[2, 4] (dp, tp)"));
        QCOMPARE(model.index(0, SearchResultsModel::FitsColumn).data().toString(), QStringLiteral("no"));
        QCOMPARE(model.index(1, SearchResultsModel::FitsColumn).data().toString(), QStringLiteral("yes"));
        const PlanCandidate& megatron = *results_->candidates[1];
        QCOMPARE(model.index(1, SearchResultsModel::StepColumn).data(SearchResultsModel::SortRole).toDouble(),
                 megatron.stepSeconds());
        QCOMPARE(model.index(1, SearchResultsModel::StepColumn).data().toString(),
                 QStringLiteral("%L1").arg(megatron.stepSeconds() * 1e3, 0, 'f', 1));
        QCOMPARE(model.candidate(1), results_->candidates[1]);
        QCOMPARE(model.rowOf(results_->candidates[0].get()), 0);
        QVERIFY(!model.candidate(2));

        // The best fitting plan ignores expert references: there is none here.
        QVERIFY(!results_->best());

        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(SearchResultsModel::SortRole);
        sorted.sort(SearchResultsModel::MemoryColumn, Qt::AscendingOrder);
        QCOMPARE(sorted.index(0, SearchResultsModel::PlanColumn).data().toString(), QStringLiteral("Megatron-LM"));

        model.setResults(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // Beside every step time: tokens per second per GPU (batch x sequence / step / GPUs)
    // and MFU (3 x the forward FLOPs the cost model counts / (step x GPUs x peak)). A plan
    // priced so fast that its MFU is 150 % is above the peak: its cell is marked and the
    // panel warns.
    void throughputBesideEveryStepAndGuardedAbovePeak()
    {
        Workload exported;
        exported.batch = 1;
        exported.sequence = 16;
        SearchSetup setup;
        setup.cluster = cluster_;
        setup.workload = exported;
        auto megatron = std::make_shared<PlanCandidate>(*results_->candidates[1]);
        megatron->workload = exported;
        const std::vector<MeshAxis> axes{{"dp", 2}, {"tp", 4}};
        const CostModel costs(folded_->graph(), folded_->coarse, folded_->families, cluster_, DeviceMesh(axes, cluster_),
                              exported);
        double forwardFlops = 0;
        for (const CoarseNode& node : folded_->coarse.nodes)
            forwardFlops += costs.facts(node.id).flops * costs.facts(node.id).modelShare;  // experts: their share
        const double peak = cluster_.gpu.peakFlopsPerSecond;
        auto impossible = std::make_shared<PlanCandidate>(*megatron);
        impossible->evaluation.total.time = TimeBreakdown{};
        impossible->evaluation.total.time.computeSeconds = 3 * forwardFlops / (1.5 * 8 * peak);  // MFU 150 %
        auto results = std::make_shared<SearchOutcome>(*results_);
        results->candidates = {megatron, impossible};
        results->finished = true;

        SearchResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setThroughput(std::make_shared<PlanThroughput>(folded_, setup));
        model.setResults(results);
        const std::optional<Throughput> normal = model.throughput(0);
        const std::optional<Throughput> tooFast = model.throughput(1);
        QVERIFY(normal && tooFast);
        QCOMPARE(normal->tokensPerSecondPerGpu, 16 / megatron->stepSeconds() / 8);
        QCOMPARE(normal->modelFlopsUtilization, 3 * forwardFlops / (megatron->stepSeconds() * 8 * peak));
        QVERIFY(normal->modelFlopsUtilization < 1);
        QCOMPARE(tooFast->modelFlopsUtilization, 1.5);
        QCOMPARE(model.rowsAbovePeak(), 1);
        QCOMPARE(model.index(0, SearchResultsModel::MfuColumn).data().toString(),
                 QStringLiteral("%L1 %").arg(normal->modelFlopsUtilization * 100, 0, 'f', 1));
        QCOMPARE(model.index(0, SearchResultsModel::TokensColumn).data().toString(),
                 QStringLiteral("%L1").arg(normal->tokensPerSecondPerGpu, 0, 'f', 0));
        QVERIFY(model.index(1, SearchResultsModel::MfuColumn).data().toString().endsWith(QStringLiteral("⚠")));
        QVERIFY(PlanThroughput::text(*tooFast).contains(QStringLiteral("above the GPU's peak")));

        SearchResultsPanel panel;
        panel.setPricing(folded_, &setup);
        panel.setResults(results);
        QVERIFY(!panel.peakWarning()->isHidden());
        QVERIFY(panel.peakWarning()->text().contains(QStringLiteral("1 plan")));
        results->candidates = {megatron};
        panel.setResults(std::make_shared<SearchOutcome>(*results));
        QVERIFY(panel.peakWarning()->isHidden());
    }

    // One row per coarse node; the columns add up to the plan's totals; the block filter
    // keeps exactly the nodes of that family's instances.
    // Megatron-LM's layout on [8, 1] (dp, tp), as a stack search lays out dp 8: the
    // column and row splits on the tensor axis of one GPU divide nothing. The summary says
    // data parallel only (no "TP 1"), the graph colours the q projection data parallel,
    // the cost table draws its tp split grey.
    void axesOfOneGpuDivideNothing()
    {
        const std::vector<MeshAxis> axes{{"dp", 8}, {"tp", 1}};
        const DeviceMesh mesh(axes, cluster_);
        const CostModel costs(folded_->graph(), folded_->coarse, folded_->families, cluster_, mesh, Workload{});
        auto candidate = std::make_shared<PlanCandidate>();
        candidate->plan = makeExpertPlan(ExpertPlanKind::Megatron, folded_->coarse, axes);
        candidate->evaluation = costs.evaluate(candidate->plan);
        candidate->meshText = mesh.toString();
        const QString summary = PlanSummary::text(*candidate, folded_->coarse, cluster_);
        QVERIFY2(summary.startsWith(QStringLiteral("embedding, attention, MLP and head: DP 8 in a node; ")),
                 qPrintable(summary));

        const auto q = std::find_if(folded_->coarse.nodes.begin(), folded_->coarse.nodes.end(), [](const CoarseNode& node) {
            return node.name.find("self_attn/q_proj") != std::string::npos;
        });
        QVERIFY(q != folded_->coarse.nodes.end());
        QCOMPARE(candidate->plan.strategy(q->id).axes[1], AxisSplit::Column);
        const PlanOverlay overlay(folded_, candidate);
        ViewNodeRef ref;
        ref.index = q->id.index();
        QCOMPARE(overlay.colors(ref), QList<QColor>{PlanOverlay::color(StrategyClass::DataParallel)});

        NodeCostModel model;
        model.setPlan(folded_, candidate);
        const int row = static_cast<int>(q->id.index());
        QCOMPARE(model.index(row, NodeCostModel::FirstSplitColumn + 1).data().toString(), QStringLiteral("column"));
        QCOMPARE(model.index(row, NodeCostModel::FirstSplitColumn + 1).data(Qt::DecorationRole).value<QColor>(),
                 PlanOverlay::color(StrategyClass::Replicated));
        QCOMPARE(model.index(row, NodeCostModel::FirstSplitColumn).data(Qt::DecorationRole).value<QColor>(),
                 PlanOverlay::color(StrategyClass::DataParallel));
    }

    // The summary says the sends overlap only where the price overlapped them: an
    // interleaved pipeline of a workload with Megatron-LM's overlap_p2p_comm, not 1F1B.
    void summarySaysWhenPipelineSendsOverlap()
    {
        const std::vector<MeshAxis> axes{{"dp", 2}, {"tp", 2}};
        PlanCandidate candidate;
        candidate.plan = makeExpertPlan(ExpertPlanKind::Megatron, folded_->coarse, axes);
        candidate.plan.pipeline.stages = 2;
        candidate.plan.pipeline.virtualStages = 2;
        candidate.plan.pipeline.schedule = PipelineSchedule::Interleaved;
        candidate.workload.pipelineSendOverlap = true;
        const QString overlapped = QStringLiteral("sends overlapped with the other chunks' compute");
        const QString interleaved = PlanSummary::text(candidate, folded_->coarse, cluster_);
        QVERIFY2(interleaved.contains(overlapped), qPrintable(interleaved));
        candidate.workload.pipelineSendOverlap = false;
        QVERIFY(!PlanSummary::text(candidate, folded_->coarse, cluster_).contains(overlapped));
        candidate.workload.pipelineSendOverlap = true;
        candidate.plan.pipeline.virtualStages = 1;
        candidate.plan.pipeline.schedule = PipelineSchedule::OneFOneB;
        const QString oneFOneB = PlanSummary::text(candidate, folded_->coarse, cluster_);
        QVERIFY2(oneFOneB.startsWith(QStringLiteral("PP 2")) && !oneFOneB.contains(overlapped), qPrintable(oneFOneB));
    }

    // The workload line names HSDP's replicas where the plan is priced so.
    void workloadLineNamesHybridSharding()
    {
        PlanCandidate candidate;
        candidate.workload.zeroStage = 3;
        QVERIFY(!PlanInspector::workloadText(candidate).contains(QStringLiteral("HSDP")));
        candidate.workload.zeroReplicas = 2;
        QVERIFY2(PlanInspector::workloadText(candidate).endsWith(QStringLiteral("ZeRO stage 3 (HSDP: 2 replicas of a shard group)")),
                 qPrintable(PlanInspector::workloadText(candidate)));
    }

    // An `any` search's plan that is a stack's own layout says whose implementations priced
    // it; a plan priced as the targeted stack, or with no stack's, does not, even where its
    // workload names the same implementations as a stack's (an `any` workload may).
    void runsOnTextNamesTheImplementingStack()
    {
        PlanCandidate candidate = *results_->candidates[1];
        SearchSetup setup;
        setup.cluster = cluster_;
        setup.options.stack = TrainingStack::Any;
        const QString priced = QStringLiteral("priced with Megatron-LM's implementations, ");
        QVERIFY(!PlanSummary::runsOnText(candidate, *folded_, setup).startsWith(QStringLiteral("priced with")));
        candidate.workload = withStackImplementations(candidate.workload, TrainingStack::Megatron);
        QVERIFY(!PlanSummary::runsOnText(candidate, *folded_, setup).startsWith(QStringLiteral("priced with")));
        candidate.implementations = TrainingStack::Megatron;
        QVERIFY2(PlanSummary::runsOnText(candidate, *folded_, setup).startsWith(priced),
                 qPrintable(PlanSummary::runsOnText(candidate, *folded_, setup)));
        setup.options.stack = TrainingStack::Megatron;
        QVERIFY(!PlanSummary::runsOnText(candidate, *folded_, setup).startsWith(QStringLiteral("priced with")));
    }

    void nodeTableAddsUpAndFilters()
    {
        NodeCostModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        NodeCostFilterModel filter;
        QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
        filter.setSourceModel(&model);
        const auto megatron = results_->candidates[1];
        model.setPlan(folded_, megatron);
        QCOMPARE(model.rowCount(), int(folded_->coarse.nodes.size()));
        QCOMPARE(model.axisCount(), 2);
        QCOMPARE(model.headerData(NodeCostModel::FirstSplitColumn + 1, Qt::Horizontal).toString(),
                 QStringLiteral("Split (tp)"));

        double compute = 0;
        double communication = 0;
        double memory = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            compute += model.index(row, model.computeColumn()).data(NodeCostModel::SortRole).toDouble();
            communication += model.index(row, model.communicationColumn()).data(NodeCostModel::SortRole).toDouble();
            memory += model.index(row, model.memoryColumn()).data(NodeCostModel::SortRole).toDouble();
        }
        const CostBreakdown& total = megatron->evaluation.total;
        QVERIFY(qAbs(compute - total.time.computeSeconds * 1e3) < 1e-9 * qMax(1.0, compute));
        QVERIFY(qAbs(communication - total.time.communicationSeconds() * 1e3) < 1e-9 * qMax(1.0, communication));
        QVERIFY(qAbs(memory - total.memory.total() / 1e9) < 1e-9 * qMax(1.0, memory));

        // Megatron: the q projection of every layer is column-parallel on tp.
        bool sawColumn = false;
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row, NodeCostModel::NodeColumn).data().toString().contains(QStringLiteral("q_proj")))
                sawColumn = model.index(row, NodeCostModel::FirstSplitColumn + 1).data().toString() ==
                            QStringLiteral("column");
        }
        QVERIFY(sawColumn);

        QVERIFY(!folded_->families.families.empty());
        const Family& family = folded_->families.families.front();
        std::size_t members = 0;
        for (const BlockInstance& instance : family.instances)
            members += instance.nodes.size();
        filter.setFamily(static_cast<int>(family.id.index()));
        QCOMPARE(filter.rowCount(), int(members));
        filter.setFamily(NodeCostFilterModel::kNoFamily);
        QCOMPARE(filter.rowCount(), int(folded_->families.unfoldedNodes.size()));
        filter.setFamily(NodeCostFilterModel::kAnyFamily);
        filter.setFilterFixedString(QStringLiteral("q_proj"));
        QCOMPARE(filter.rowCount(), int(family.multiplicity()));

        model.setPlan(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }

    // The plan comparison table: one row per block position whose nodes changed alike
    // (PlanComparison::groups), which together cover the coarse nodes whose strategy
    // differs between data parallel and Megatron (counted here by hand) once, each with
    // both strategies and its nodes' summed step-time delta.
    void planDiffListsTheChangedNodes()
    {
        PlanDiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.rowCount(), 0);
        const auto& dp = results_->candidates[0];
        const auto& megatron = results_->candidates[1];
        model.setComparison(PlanComparison::make(*folded_, dp, megatron));
        int differing = 0;
        for (const CoarseNode& node : folded_->coarse.nodes)
            differing += dp->plan.strategy(node.id) == megatron->plan.strategy(node.id) ? 0 : 1;
        QVERIFY(differing > 0);
        const std::vector<StrategyChangeGroup>& groups = model.comparison()->groups;
        QCOMPARE(model.rowCount(), static_cast<int>(groups.size()));
        QVERIFY(model.rowCount() < differing);  // the repeated blocks' nodes share rows
        std::set<CoarseNodeId> covered;
        for (const StrategyChangeGroup& group : groups)
            for (const CoarseNodeId node : group.nodes) {
                QVERIFY(!(dp->plan.strategy(node) == megatron->plan.strategy(node)));
                QVERIFY(covered.insert(node).second);
            }
        QCOMPARE(static_cast<int>(covered.size()), differing);
        QCOMPARE(model.columnCount(), int(PlanDiffModel::ColumnCount));
        const StrategyChangeGroup& first = groups.front();
        const QString name = model.index(0, PlanDiffModel::NodeColumn).data().toString();
        QCOMPARE(name, first.nodes.size() > 1 ? QStringLiteral("%1 ×%2").arg(QString::fromStdString(first.name)).arg(first.nodes.size())
                                              : QString::fromStdString(first.name));
        double delta = 0;
        for (const CoarseNodeId node : first.nodes)
            delta += megatron->breakdowns().perNode[node.index()].time.stepSeconds() -
                     dp->breakdowns().perNode[node.index()].time.stepSeconds();
        QCOMPARE(model.index(0, PlanDiffModel::StepDeltaColumn).data(PlanDiffModel::SortRole).toDouble(), delta);
        model.setComparison(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The strategy list of one edit target: a row per legal strategy, exactly one of them
    // the plan's current one, each priced as the plan with only that change.
    void strategyChoicesPriceEachStrategy()
    {
        StrategyChoicesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(model.rowCount(), 0);
        const std::vector<MeshAxis> axes{{"dp", 2}, {"tp", 4}};
        SearchSetup setup;
        setup.cluster = cluster_;
        const PlanPricing pricing(folded_, setup, axes);
        const std::vector<EditTarget> targets = editTargets(folded_->coarse, folded_->families);
        const auto target = std::find_if(targets.begin(), targets.end(),
                                         [](const EditTarget& t) { return t.kind == CoarseNodeKind::Linear; });
        QVERIFY(target != targets.end());
        const Plan& megatron = results_->candidates[1]->plan;
        const auto choices = std::make_shared<const StrategyChoices>(StrategyChoices::compute(pricing, megatron, *target));
        model.setChoices(choices, axes);
        QVERIFY(model.rowCount() > 1);
        QCOMPARE(model.rowCount(), int(choices->choices.size()));
        int current = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const StrategyChoices::Choice& choice = choices->choices[static_cast<std::size_t>(row)];
            current += choice.current ? 1 : 0;
            const double step = pricing.costs().evaluate(withStrategy(megatron, *target, choice.strategy))
                                    .total.time.stepSeconds();
            QCOMPARE(model.index(row, StrategyChoicesModel::StepColumn).data(StrategyChoicesModel::SortRole).toDouble(),
                     step);
        }
        QCOMPARE(current, 1);
        // With an HBM between the smallest and the largest choice: those above it are red.
        const auto [least, most] = std::minmax_element(
            choices->choices.begin(), choices->choices.end(),
            [](const StrategyChoices::Choice& a, const StrategyChoices::Choice& b) { return a.memoryBytes < b.memoryBytes; });
        QVERIFY(least->memoryBytes < most->memoryBytes);
        const double hbm = (least->memoryBytes + most->memoryBytes) / 2;
        model.setChoices(choices, axes, hbm);
        for (int row = 0; row < model.rowCount(); ++row) {
            const bool over = choices->choices[static_cast<std::size_t>(row)].memoryBytes > hbm;
            QCOMPARE(model.index(row, StrategyChoicesModel::MemoryColumn).data(Qt::ForegroundRole).isValid(), over);
        }
        model.setChoices(nullptr, {});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(ExplorerModelsTest)
#include "ExplorerModelsTest.moc"
