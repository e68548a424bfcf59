// Twenty `tapestry-cli search --mesh auto` processes at once, recording into one
// history: each exits cleanly with the same plan, and the history holds all twenty runs.
#include "history/HistoryStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

namespace {

// A DGX H100 cut down to two GPUs: one mesh to search, so twenty runs stay quick.
constexpr const char* kTwoGpuCluster = R"({
  "name": "h100-pair",
  "nodes": 1,
  "gpusPerNode": 2,
  "gpu": {"name": "H100 SXM5 80GB", "peakFlopsPerSecond": 989e12, "achievableFraction": 0.5,
          "hbmBytes": 80000000000, "hbmBytesPerSecond": 3.35e12},
  "intraNode": {"bytesPerSecond": 370e9, "latencySeconds": 3e-6},
  "interNode": {"bytesPerSecond": 48e9, "latencySeconds": 6e-6}
})";

// The result without what legitimately varies between runs: the solver's wall time.
QJsonObject withoutTimings(QJsonObject result)
{
    QJsonArray meshes = result.value(QStringLiteral("meshes")).toArray();
    for (QJsonValueRef mesh : meshes) {
        QJsonObject object = mesh.toObject();
        QJsonObject statistics = object.value(QStringLiteral("statistics")).toObject();
        for (const char* timing : {"seconds", "grouping_seconds", "solve_seconds", "evaluate_seconds"})
            statistics.remove(QString::fromLatin1(timing));
        object.insert(QStringLiteral("statistics"), statistics);
        mesh = object;
    }
    result.insert(QStringLiteral("meshes"), meshes);
    result.remove(QStringLiteral("search_cpu_seconds"));
    return result;
}

}  // namespace

class ConcurrentSearchTest : public QObject {
    Q_OBJECT

private slots:
    void twentyParallelSearchesAgreeAndAreAllRecorded()
    {
        constexpr int kRuns = 20;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cluster = dir.filePath(QStringLiteral("h100-pair.json"));
        {
            QFile file(cluster);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(kTwoGpuCluster);
        }
        const QString history = dir.filePath(QStringLiteral("history.sqlite"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TAPESTRY_HISTORY"), history);
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < kRuns; ++i) {
            auto process = std::make_unique<QProcess>();
            process->setProcessEnvironment(environment);
            process->start(QStringLiteral(TAPESTRY_CLI_PATH),
                           {QStringLiteral("search"), QStringLiteral(TAPESTRY_TEST_DATA_DIR "/gpt2.ts.stripped.onnx"),
                            QStringLiteral("--cluster"), cluster, QStringLiteral("--mesh"), QStringLiteral("auto"),
                            QStringLiteral("--json")});
            processes.push_back(std::move(process));
        }
        QJsonObject first;
        for (int i = 0; i < kRuns; ++i) {
            QProcess& process = *processes[static_cast<std::size_t>(i)];
            QVERIFY2(process.waitForFinished(240000), qPrintable(QStringLiteral("run %1 did not finish").arg(i)));
            const QString err = QString::fromUtf8(process.readAllStandardError());
            QCOMPARE(process.exitStatus(), QProcess::NormalExit);
            QVERIFY2(process.exitCode() == 0, qPrintable(err));
            QVERIFY2(!err.contains(QStringLiteral("error")) && !err.contains(QStringLiteral("warning")), qPrintable(err));
            QJsonParseError parse;
            const QJsonDocument json = QJsonDocument::fromJson(process.readAllStandardOutput(), &parse);
            QVERIFY2(parse.error == QJsonParseError::NoError, qPrintable(parse.errorString()));
            const QJsonObject result = withoutTimings(json.object());
            QVERIFY(result.contains(QStringLiteral("strategies")));
            if (i == 0)
                first = result;
            else
                QVERIFY2(result == first, qPrintable(QStringLiteral("run %1 found another plan").arg(i)));
        }
        tapestry::HistoryStoreOptions readOnly;
        readOnly.readOnly = true;
        const tapestry::HistoryStore store(history.toStdString(), readOnly);
        const std::vector<tapestry::RunRecord> runs = store.recentRuns(100);
        QCOMPARE(runs.size(), std::size_t(kRuns));
        for (const tapestry::RunRecord& run : runs)
            QCOMPARE(run.status, tapestry::RunStatus::Finished);
    }
};

QTEST_GUILESS_MAIN(ConcurrentSearchTest)
#include "ConcurrentSearchTest.moc"
