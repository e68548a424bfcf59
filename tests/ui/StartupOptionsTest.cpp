// The GUI's command line (`tapestry --search --mesh auto ...`): what each option sets, and
// the message of a bad one, which names the option.
#include "windows/StartupOptions.h"

#include <QTest>

using namespace tapestry;

namespace {

StartupOptions optionsOf(const QStringList& arguments)
{
    std::variant<StartupOptions, QString> read = StartupOptions::fromArguments(QStringList{QStringLiteral("tapestry")} + arguments);
    if (const QString* error = std::get_if<QString>(&read))
        qFatal("refused: %s", qPrintable(*error));
    return std::get<StartupOptions>(read);
}

QString errorOf(const QStringList& arguments)
{
    std::variant<StartupOptions, QString> read = StartupOptions::fromArguments(QStringList{QStringLiteral("tapestry")} + arguments);
    const QString* error = std::get_if<QString>(&read);
    return error ? *error : QString();
}

}  // namespace

class StartupOptionsTest : public QObject {
    Q_OBJECT

private slots:
    // Every mesh the search offers, as tapestry-cli's `--mesh auto` (it used to be refused).
    void meshAutoAsTheCliTakesIt()
    {
        const StartupOptions options =
            optionsOf({QStringLiteral("--search"), QStringLiteral("--cluster"), QStringLiteral("dgx-h100x16"),
                       QStringLiteral("--mesh"), QStringLiteral("auto"), QStringLiteral("gpt3.onnx")});
        QVERIFY(options.search);
        QCOMPARE(options.mesh, QStringLiteral("auto"));
        QCOMPARE(options.cluster, QStringLiteral("dgx-h100x16"));
        QCOMPARE(options.modelPath, QStringLiteral("gpt3.onnx"));
    }

    void meshesWrittenAsTheCliWritesThem()
    {
        QCOMPARE(optionsOf({QStringLiteral("--mesh"), QStringLiteral("2x8")}).mesh, QStringLiteral("2x8"));
        QCOMPARE(optionsOf({QStringLiteral("--mesh"), QStringLiteral("pp=8,dp=2,tp=8")}).mesh,
                 QStringLiteral("pp=8,dp=2,tp=8"));
        QVERIFY(optionsOf({}).mesh.isEmpty());  // the panel's default
    }

    void workloadAndPanels()
    {
        const StartupOptions options =
            optionsOf({QStringLiteral("--batch"), QStringLiteral("1536"), QStringLiteral("--seq"), QStringLiteral("2048"),
                       QStringLiteral("--micro-batch"), QStringLiteral("1"), QStringLiteral("--target"),
                       QStringLiteral("torchtitan"), QStringLiteral("--show"), QStringLiteral("timeline"),
                       QStringLiteral("--window-size"), QStringLiteral("1366x768")});
        QCOMPARE(options.batch, 1536);
        QCOMPARE(options.sequence, 2048);
        QCOMPARE(options.microBatch, 1);
        QCOMPARE(options.target, QStringLiteral("torchtitan"));
        QVERIFY(options.showTimeline);
        QVERIFY(options.showInspector);  // the schedule is the inspector's tab
        QCOMPARE(options.windowSize, QSize(1366, 768));
    }

    void badOptionsNameTheOption()
    {
        QVERIFY(errorOf({QStringLiteral("--mesh"), QStringLiteral("2y8")}).startsWith(QStringLiteral("Bad mesh '2y8'")));
        QVERIFY(errorOf({QStringLiteral("--mesh"), QStringLiteral("automatic")}).startsWith(QStringLiteral("Bad mesh")));
        QCOMPARE(errorOf({QStringLiteral("--batch"), QStringLiteral("0")}),
                 QStringLiteral("--batch needs a positive whole number."));
        QCOMPARE(errorOf({QStringLiteral("--target"), QStringLiteral("deepspeed")}),
                 QStringLiteral("Unknown --target 'deepspeed'."));
        // The presets' names, as the CLI lists them (the GUI searched its default cluster before).
        const QString cluster = errorOf({QStringLiteral("--cluster"), QStringLiteral("dgx-h100")});
        QVERIFY2(cluster.startsWith(QStringLiteral("Unknown cluster preset 'dgx-h100': use ")), qPrintable(cluster));
        QVERIFY2(cluster.contains(QStringLiteral("dgx-h100x2, ")), qPrintable(cluster));
        QCOMPARE(errorOf({QStringLiteral("--window-size"), QStringLiteral("big")}),
                 QStringLiteral("Bad window size 'big': write it as 1600x1000."));
        QVERIFY(errorOf({QStringLiteral("--no-such-option")}).contains(QStringLiteral("no-such-option")));
        QCOMPARE(errorOf({QStringLiteral("--show"), QStringLiteral("histories")}),
                 QStringLiteral("Unknown panel 'histories': use results, inspector, timeline, traffic, edit, compare, "
                                "history or export."));
        QVERIFY(optionsOf({QStringLiteral("--show"), QStringLiteral("history")}).showHistory);
    }
};

QTEST_GUILESS_MAIN(StartupOptionsTest)
#include "StartupOptionsTest.moc"
