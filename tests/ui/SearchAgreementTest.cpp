// The CLI's `search` and the GUI's search job go through one SearchSession and one
// best-plan rule: for the same model, cluster, meshes and workload they pick the same
// plan on the same mesh.
#include "FoldedTestModel.h"
#include "search/PlanSearchJob.h"
#include "plan/AxisSplit.h"
#include "search/SearchOutcome.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace tapestry;

class SearchAgreementTest : public QObject {
    Q_OBJECT

private slots:
    void cliAndGuiPickTheSamePlan()
    {
        const char* modelName = "llama.ts.stripped.onnx";
        auto folded = std::make_shared<const FoldedModel>(test::foldTestFile(modelName));
        SearchSetup setup;
        setup.cluster = test::testCluster("dgx-h100x1");
        setup.workload = test::workload(8, 1024);

        PlanSearchJob job;
        std::shared_ptr<const SearchOutcome> gui;
        connect(&job, &PlanSearchJob::finished, this, [&](std::shared_ptr<const SearchOutcome> results) { gui = results; });
        job.start(folded, setup);
        QTRY_VERIFY_WITH_TIMEOUT(gui != nullptr, 120000);
        QVERIFY(gui && gui->finished && !gui->cancelled);
        QVERIFY(gui->meshes.size() > 1);  // --mesh auto: a real choice between meshes
        const std::shared_ptr<const PlanCandidate> guiBest = gui->best();
        QVERIFY(guiBest);

        QProcess cli;
        cli.start(QStringLiteral(TAPESTRY_CLI_PATH),
                  {QStringLiteral("search"), QString::fromStdString(test::testDataFile(modelName)), QStringLiteral("--cluster"),
                   QStringLiteral("dgx-h100x1"), QStringLiteral("--mesh"), QStringLiteral("auto"),
                   QStringLiteral("--batch"), QStringLiteral("8"), QStringLiteral("--seq"), QStringLiteral("1024"),
                   QStringLiteral("--target"), QString::fromLatin1(trainingStackName(setup.options.stack)),
                   QStringLiteral("--json"), QStringLiteral("--no-history")});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(json.value(QStringLiteral("meshes")).toArray().size(), static_cast<qsizetype>(gui->meshes.size()));
        QCOMPARE(json.value(QStringLiteral("best_mesh")).toString().toStdString(), guiBest->meshText);
        QCOMPARE(json.value(QStringLiteral("best")).toObject().value(QStringLiteral("step_seconds")).toDouble(),
                 guiBest->stepSeconds());
        const QJsonObject strategies = json.value(QStringLiteral("strategies")).toObject();
        QCOMPARE(strategies.size(), static_cast<qsizetype>(folded->coarse.nodes.size()));
        for (const CoarseNode& node : folded->coarse.nodes) {
            QString splits;
            for (const AxisSplit split : guiBest->plan.strategy(node.id).axes)
                splits += QString::fromLatin1(splits.isEmpty() ? "" : ",") + QString::fromLatin1(axisSplitName(split));
            QCOMPARE(strategies.value(QString::fromStdString(node.name)).toString(), splits);
        }
    }
};

QTEST_MAIN(SearchAgreementTest)
#include "SearchAgreementTest.moc"
