// The explorer's item models under QAbstractItemModelTester: the search results list and
// the per-node cost table with its block filter, over the expert plans of the small
// Llama (llama.ts.stripped.onnx) on one DGX-H100 node with the mesh [2, 4].
#include "fold/FoldedModel.h"
#include "model/LoadedModel.h"
#include "plans/NodeCostFilterModel.h"
#include "plans/NodeCostModel.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"
#include "cluster/ClusterFile.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTest>

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
        const CostModel costs(folded_->graph(), folded_->coarse, folded_->families, cluster_, mesh, Workload{});
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

    // One row per coarse node; the columns add up to the plan's totals; the block filter
    // keeps exactly the nodes of that family's instances.
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
};

QTEST_MAIN(ExplorerModelsTest)
#include "ExplorerModelsTest.moc"
