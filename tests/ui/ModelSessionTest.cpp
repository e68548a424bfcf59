// The GUI's one model session: a model's fold arrives in the background; a search's
// results and setup and the plan on screen belong to the model they were made for, and
// a new model clears them (a running search is dropped); a plan priced for another fold
// is never put on screen.
#include "FoldedTestModel.h"
#include "model/LoadedModel.h"
#include "model/ModelSession.h"
#include "plan/ExpertPlans.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"

#include <QSignalSpy>
#include <QTest>

using namespace tapestry;

class ModelSessionTest : public QObject {
    Q_OBJECT

private:
    static constexpr int kTimeoutMs = 60000;

    static std::shared_ptr<const LoadedModel> load(const char* name)
    {
        return LoadedModel::load(QString::fromStdString(test::testDataFile(name)));
    }

    static SearchSetup setup()
    {
        SearchSetup setup;
        setup.cluster = test::testCluster("dgx-h100x1");
        setup.mesh = namedMeshAxes({2, 4});
        setup.workload = test::workload(8, 1024);
        return setup;
    }

    // The Megatron plan of `folded` on [2, 4], priced.
    static std::shared_ptr<const PlanCandidate> megatron(const std::shared_ptr<const FoldedModel>& folded)
    {
        const PlanPricing pricing(folded, setup(), namedMeshAxes({2, 4}));
        return pricing.price(makeExpertPlan(ExpertPlanKind::Megatron, folded->coarse, namedMeshAxes({2, 4})));
    }

private slots:
    void foldsTheModelAndKeepsOnlyItsOwnPlanOnScreen()
    {
        ModelSession session;
        QSignalSpy changed(&session, &ModelSession::modelChanged);
        QSignalSpy folded(&session, &ModelSession::foldFinished);
        QSignalSpy plans(&session, &ModelSession::currentPlanChanged);
        const std::shared_ptr<const LoadedModel> llama = load("llama.ts.stripped.onnx");
        session.setModel(llama);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(session.model(), llama);
        QVERIFY(!session.folded());  // folding in the background
        QTRY_VERIFY_WITH_TIMEOUT(session.folded(), kTimeoutMs);
        QCOMPARE(folded.count(), 1);
        QCOMPARE(session.folded()->source, llama->graph);

        // The same model folded again elsewhere is another fold: its plans stay off screen.
        const auto other = std::make_shared<const FoldedModel>(foldModel(llama->graph));
        session.setCurrentPlan(other, megatron(other));
        QVERIFY(!session.currentPlan());
        QCOMPARE(plans.count(), 0);
        const std::shared_ptr<const PlanCandidate> own = megatron(session.folded());
        session.setCurrentPlan(session.folded(), own);
        QCOMPARE(session.currentPlan(), own);
        QCOMPARE(plans.count(), 1);
        session.setCurrentPlan(session.folded(), own);
        QCOMPARE(plans.count(), 1);  // no change, no signal

        session.setModel(load("gpt2.ts.stripped.onnx"));
        QVERIFY(!session.currentPlan());
        QCOMPARE(plans.count(), 2);
        QVERIFY(!plans.last().first().value<std::shared_ptr<const PlanCandidate>>());
        QVERIFY(!session.folded());
    }

    void resultsBelongToTheSearchedModel()
    {
        ModelSession session;
        QVERIFY(!session.startSearch(setup()));  // no model, no fold: nothing to search
        session.setModel(load("llama.ts.stripped.onnx"));
        QVERIFY(!session.startSearch(setup()));  // still folding
        QTRY_VERIFY_WITH_TIMEOUT(session.folded(), kTimeoutMs);

        QSignalSpy finished(&session, &ModelSession::searchFinished);
        QSignalSpy results(&session, &ModelSession::resultsChanged);
        QVERIFY(session.startSearch(setup()));
        QVERIFY(session.isSearching());
        QCOMPARE(session.searchedSetup()->mesh, namedMeshAxes({2, 4}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(!session.isSearching());
        QVERIFY(session.results() && session.results()->finished);
        QCOMPARE(finished.first().first().value<std::shared_ptr<const SearchOutcome>>(), session.results());
        QCOMPARE(results.last().first().value<std::shared_ptr<const SearchOutcome>>(), session.results());
        QVERIFY(session.results()->best());

        // A search still running when another model arrives is dropped with the results.
        QVERIFY(session.startSearch(setup()));
        QVERIFY(!session.results());  // a new search starts from none
        session.setModel(load("gpt2.ts.stripped.onnx"));
        QVERIFY(!session.isSearching());
        QVERIFY(!session.results());
        QVERIFY(!session.searchedSetup());
        QTRY_VERIFY_WITH_TIMEOUT(session.folded(), kTimeoutMs);
        QTest::qWait(200);
        QCOMPARE(finished.count(), 1);
    }

    // The cluster panel's workload goes through the check the CLI's search makes: 16
    // sequences in micro-batches of 3 are refused before any plan is priced.
    void aWorkloadThatContradictsItselfIsRefusedBeforeSearching()
    {
        ModelSession session;
        session.setModel(load("gpt2.ts.stripped.onnx"));
        QTRY_VERIFY_WITH_TIMEOUT(session.folded(), kTimeoutMs);
        QSignalSpy failed(&session, &ModelSession::searchFailed);
        QSignalSpy finished(&session, &ModelSession::searchFinished);
        SearchSetup odd = setup();
        odd.workload.batch = 16;
        odd.workload.microBatch = 3;
        QVERIFY(session.startSearch(odd));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
        QCOMPARE(failed.first().at(1).toString(),
                 QStringLiteral("Global batch: global batch 16 is not a multiple of micro-batch 3"));
        QCOMPARE(finished.count(), 0);
    }
};

QTEST_MAIN(ModelSessionTest)
#include "ModelSessionTest.moc"
