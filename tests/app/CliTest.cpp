// tapestry-cli as a user runs it: real process, real files, exit codes and output.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>
#include <utility>

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

CliRun runCli(const QStringList& args)
{
    // evaluate and search record to the history: never to the real home directory.
    static const QTemporaryDir historyDir;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TAPESTRY_HISTORY"), historyDir.filePath(QStringLiteral("history.sqlite")));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(TAPESTRY_CLI_PATH), args);
    CliRun run;
    // Seconds idle, tens at a load of 20 on two cores: a bound load does not reach, below
    // Qt Test's five minutes per test function.
    if (!process.waitForFinished(240000))
        return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// `args` run with stderr on a pseudo-terminal (stdout thrown away): what a user at a
// terminal sees of its progress. The exit code and the terminal's text.
std::pair<int, QString> runCliOnTerminal(const QStringList& args)
{
    int terminal = -1;
    int child = -1;
    if (openpty(&terminal, &child, nullptr, nullptr, nullptr) != 0)
        return {-1, QStringLiteral("openpty failed")};
    std::vector<QByteArray> words{QByteArrayLiteral(TAPESTRY_CLI_PATH)};
    for (const QString& arg : args)
        words.push_back(arg.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(child, STDERR_FILENO);
        close(terminal);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(child);
    QByteArray seen;
    char buffer[4096];
    for (ssize_t n; (n = read(terminal, buffer, sizeof buffer)) > 0;)  // EIO once the child has gone
        seen.append(buffer, n);
    close(terminal);
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, QString::fromUtf8(seen)};
}

QString dataFile(const char* name)
{
    return QStringLiteral(TAPESTRY_TEST_DATA_DIR "/") + QString::fromUtf8(name);
}

// The options each command line names, per command: "--json", "-o", ...
using OptionsByCommand = QMap<QString, QSet<QString>>;

void addOptions(OptionsByCommand& options, const QString& line)
{
    const QString command = line.section(QLatin1Char(' '), 0, 0);
    QSet<QString>& names = options[command];
    static const QRegularExpression option(QStringLiteral("(?<![\\w-])(--[a-z0-9][a-z0-9-]*|-o)(?![\\w-])"));
    for (const QRegularExpressionMatch& match : option.globalMatch(line))
        names.insert(match.captured(1));
}

// The README's command list: the lines of its first ```sh block after "## Command line".
OptionsByCommand readmeCommands()
{
    QFile file(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/../../README.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.readAll());
    const qsizetype section = text.indexOf(QStringLiteral("## Command line"));
    const qsizetype start = text.indexOf(QStringLiteral("```sh\n"), section) + 6;
    const qsizetype end = text.indexOf(QStringLiteral("```"), start);
    QString block = text.mid(start, end - start);
    block.replace(QRegularExpression(QStringLiteral("\\\\\n\\s*")), QStringLiteral(" "));
    OptionsByCommand options;
    for (const QString& line : block.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QStringLiteral("tapestry-cli ")))
            addOptions(options, line.mid(13));
    }
    return options;
}

// The synopses of `tapestry-cli --help`: "  COMMAND ..." lines and their continuations
// (indented further); the descriptions (indented six) are left out.
OptionsByCommand helpCommands(const QString& help)
{
    OptionsByCommand options;
    QString synopsis;
    auto flush = [&] {
        if (!synopsis.isEmpty())
            addOptions(options, synopsis);
        synopsis.clear();
    };
    for (const QString& line : help.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("  ")) && !line.at(2).isSpace()) {
            flush();
            synopsis = line.trimmed();
        } else if (line.startsWith(QString(11, QLatin1Char(' '))) && !synopsis.isEmpty()) {
            synopsis += QLatin1Char(' ') + line.trimmed();
        } else {
            flush();
        }
    }
    flush();
    return options;
}

// The synth preset `preset` with `layers` layers written into `dir` as `file`: its path,
// or an empty one when synth failed.
QString synthesized(const QTemporaryDir& dir, const char* preset, int layers, const char* file)
{
    const QString model = dir.filePath(QString::fromLatin1(file));
    return runCli({QStringLiteral("synth"), QStringLiteral("--preset"), QString::fromLatin1(preset),
                   QStringLiteral("--layers"), QString::number(layers), QStringLiteral("-o"), model})
                   .exitCode == 0
               ? model
               : QString();
}

// A runs file (validate's format) in `dir` named `stem`-runs.json: one small GPT run on
// 8 H100 per entry of `attentions`, named "run0", "run1", ... and saying that kernel.
QString runsFile(const QTemporaryDir& dir, const QString& stem, const QStringList& attentions)
{
    QStringList cases;
    for (const QString& attention : attentions)
        cases << QStringLiteral(R"({"name": "run%1", "source": "s", "model": {"architecture": "gpt", "layers": 2,
            "hidden": 64, "heads": 4, "ffn_hidden": 256, "vocab": 128, "sequence": 128, "attention": "%2"},
            "hardware": {"gpu": "H100-SXM5-80GB", "peak_tflops_bf16": 989, "gpus_per_node": 8, "nodes": 1,
            "inter_node_gbit_per_gpu": 400}, "training": {"precision": "bf16", "global_batch": 8,
            "micro_batch": 1, "gradient_accumulation": 1, "data_parallel": 8, "tensor_parallel": 1,
            "pipeline_parallel": 1, "virtual_stages": 1, "sequence_parallel": false, "context_parallel": 1,
            "zero_stage": 0, "recompute": "none", "optimizer": "adam"}, "measured": {"step_seconds": 1}})")
                     .arg(cases.size())
                     .arg(attention);
    QFile file(dir.filePath(stem + QStringLiteral("-runs.json")));
    file.open(QIODevice::WriteOnly);
    file.write((QStringLiteral("{\"cases\": [") + cases.join(QStringLiteral(", ")) + QStringLiteral("]}")).toUtf8());
    return file.fileName();
}

// gpt2-small with 2 layers synthesized into `dir`, and its Megatron plan on [2, 4] of
// dgx-h100x1 written by evaluate: {model, plan}, or empty paths when a step failed.
std::pair<QString, QString> gpt2MegatronPlan(const QTemporaryDir& dir)
{
    const QString model = synthesized(dir, "gpt2-small", 2, "gpt2-2.onnx");
    const QString plan = dir.filePath(QStringLiteral("megatron.json"));
    if (model.isEmpty() ||
        runCli({QStringLiteral("evaluate"), model, QStringLiteral("--mesh"), QStringLiteral("2x4"),
                QStringLiteral("--plan"), QStringLiteral("megatron"), QStringLiteral("--no-history"),
                QStringLiteral("-o"), plan})
                .exitCode != 0)
        return {};
    return {model, plan};
}

}  // namespace

class CliTest : public QObject {
    Q_OBJECT

private slots:
    void inspectPrintsSummary()
    {
        const CliRun run = runCli({QStringLiteral("inspect"), dataFile("llama3_8b_shape.dynamo.stripped.onnx")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("8.03 B (8030392320)")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("ops          2191")));
        QVERIFY(run.out.contains(QStringLiteral("layers.31")));
    }

    void inspectJsonIsMachineReadable()
    {
        const CliRun run =
            runCli({QStringLiteral("inspect"), dataFile("llama.ts.stripped.onnx"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject o = doc.object();
        QCOMPARE(o.value(QStringLiteral("ops")).toInt(), 549);
        QCOMPARE(o.value(QStringLiteral("parameters")).toInteger(), 857216);
        QCOMPARE(o.value(QStringLiteral("ir_version")).toInt(), 8);
        QCOMPARE(o.value(QStringLiteral("opsets")).toObject().value(QStringLiteral("ai.onnx")).toInt(), 17);
        QCOMPARE(o.value(QStringLiteral("op_histogram")).toObject().value(QStringLiteral("MatMul")).toInt(), 38);
        const QJsonArray inputs = o.value(QStringLiteral("inputs")).toArray();
        // TorchScript names its inputs after the traced values.
        QCOMPARE(inputs.size(), 3);
        QCOMPARE(inputs[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("input.1"));
    }

    void foldReportsFamiliesAndWritesDot()
    {
        QTemporaryDir dir;
        const QString dot = dir.filePath(QStringLiteral("folded.dot"));
        const CliRun run = runCli({QStringLiteral("fold"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                   QStringLiteral("--json"), QStringLiteral("--dot"), dot});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const QJsonArray families = o.value(QStringLiteral("families")).toArray();
        QCOMPARE(families.size(), 1);
        const QJsonObject layers = families[0].toObject();
        QCOMPARE(layers.value(QStringLiteral("name")).toString(), QStringLiteral("model/layers.#"));
        QCOMPARE(layers.value(QStringLiteral("multiplicity")).toInt(), 32);
        // 9 anchors per layer decided once, plus the embedding and the LM head.
        QCOMPARE(o.value(QStringLiteral("decision_anchors")).toInt(), 11);
        QCOMPARE(o.value(QStringLiteral("fold_ratio")).toDouble(), 2191.0 / 11.0);

        QFile file(dot);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.startsWith(QStringLiteral("digraph")));
        QVERIFY(text.contains(QStringLiteral("model/layers.#  \u00d732")));
    }

    void evaluateMegatronAndReloadItsPlanFile()
    {
        QTemporaryDir dir;
        const QString planFile = dir.filePath(QStringLiteral("megatron.json"));
        const QStringList common = {QStringLiteral("evaluate"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                    QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"), QStringLiteral("--batch"),
                                    QStringLiteral("8"), QStringLiteral("--seq"), QStringLiteral("2048"),
                                    QStringLiteral("--json")};
        const CliRun first = runCli(common + QStringList{QStringLiteral("--mesh"), QStringLiteral("2x8"),
                                                         QStringLiteral("--plan"), QStringLiteral("megatron"),
                                                         QStringLiteral("-o"), planFile});
        QCOMPARE(first.exitCode, 0);
        const QJsonObject a = QJsonDocument::fromJson(first.out.toUtf8()).object();
        const QJsonObject total = a.value(QStringLiteral("total")).toObject();
        // Data parallelism over two nodes: one all-reduce of each device's 1/8 of the
        // 8.03 B bf16 gradients over 48 GB/s: 2 (n-1)/n S / B with n = 2.
        const double dp = total.value(QStringLiteral("by_axis")).toObject().value(QStringLiteral("dp")).toDouble();
        const double expected = 8030392320.0 / 8 * 2 / 48e9 + 2 * 6e-6;
        QVERIFY2(std::abs(dp - expected) < 1e-3 * expected, qPrintable(QString::number(dp)));
        QVERIFY(a.value(QStringLiteral("fits_in_memory")).toBool());

        const CliRun again = runCli(common + QStringList{QStringLiteral("--plan"), planFile});
        QCOMPARE(again.exitCode, 0);
        const QJsonObject b = QJsonDocument::fromJson(again.out.toUtf8()).object();
        QCOMPARE(b.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble(),
                 total.value(QStringLiteral("step_seconds")).toDouble());

        const CliRun wrongModel = runCli({QStringLiteral("evaluate"), dataFile("gpt2.ts.stripped.onnx"),
                                          QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                                          QStringLiteral("--plan"), planFile});
        QCOMPARE(wrongModel.exitCode, 1);
        QVERIFY2(wrongModel.err.contains(planFile), qPrintable(wrongModel.err));
    }

    void searchEmitsItsProblemAndSolveFindsThePlansCost()
    {
        QTemporaryDir dir;
        const QString problem = dir.filePath(QStringLiteral("search.json"));
        const CliRun search = runCli({QStringLiteral("search"), dataFile("gpt2_medium_shape.ts.stripped.onnx"),
                                      QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"), QStringLiteral("--mesh"),
                                      QStringLiteral("2x4"), QStringLiteral("--batch"), QStringLiteral("16"),
                                      QStringLiteral("--seq"), QStringLiteral("1024"), QStringLiteral("--no-history"),
                                      QStringLiteral("--target"), QStringLiteral("any"),
                                      QStringLiteral("--emit-iopddl"), problem});
        QCOMPARE(search.exitCode, 0);
        const QRegularExpressionMatch wrote =
            QRegularExpression(QStringLiteral("wrote the TAP problem to .*: (\\d+) nodes, (\\d+) edges")).match(search.err);
        const QRegularExpressionMatch found =
            QRegularExpression(QStringLiteral("the plan found costs (\\d+) there\n")).match(search.err);
        QVERIFY2(wrote.hasMatch() && found.hasMatch(), qPrintable(search.err));

        const CliRun solve = runCli({QStringLiteral("solve"), problem, QStringLiteral("--json")});
        QCOMPARE(solve.exitCode, 0);
        const QJsonObject solved = QJsonDocument::fromJson(solve.out.section(QLatin1Char('\n'), 0, 0).toUtf8()).object();
        QVERIFY2(solved.value(QStringLiteral("proven_optimal")).toBool(), qPrintable(solve.out));
        // Proven optimal: the lower bound is the cost, the gap 0.
        QCOMPARE(solved.value(QStringLiteral("lower_bound")).toInteger(), solved.value(QStringLiteral("cost")).toInteger());
        QCOMPARE(solved.value(QStringLiteral("gap")).toDouble(), 0.0);
        // Both are optima of one problem: the search's in seconds, the solver's in whole
        // nanoseconds, so they differ by at most half a nanosecond per node and edge.
        const qint64 planCost = found.captured(1).toLongLong();
        const qint64 solverCost = solved.value(QStringLiteral("cost")).toInteger();
        const qint64 rounding = (wrote.captured(1).toLongLong() + wrote.captured(2).toLongLong()) / 2;
        QVERIFY(solverCost > 0);
        QVERIFY2(solverCost <= planCost && planCost - solverCost <= rounding,
                 qPrintable(QStringLiteral("plan %1, solver %2").arg(planCost).arg(solverCost)));
    }

    // The contest's example with interval ends near 1.5e9 (solve once aborted with
    // bad_alloc) and one with a cost of -9.2e18 (once a signed overflow in the reducer).
    void solveTakesFarIntervalEndsAndRefusesNegativeCosts()
    {
        QFile example(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/iopddl/example.json"));
        QVERIFY(example.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(example.readAll());
        QString far = text;
        for (const char* interval : {"[30, 70]", "[40, 70]", "[50, 120]", "[110, 140]", "[110, 150]"}) {
            QString scaled = QString::fromLatin1(interval);
            scaled.replace(QStringLiteral(", "), QStringLiteral("0000000, ")).replace(QStringLiteral("]"), QStringLiteral("0000000]"));
            QVERIFY(far.contains(QLatin1String(interval)));
            far.replace(QLatin1String(interval), scaled);
        }
        QTemporaryDir dir;
        const QString farFile = dir.filePath(QStringLiteral("far.json"));
        const QString negativeFile = dir.filePath(QStringLiteral("negative.json"));
        for (const auto& [path, content] : {std::pair{farFile, far},
                                            std::pair{negativeFile, QString(text).replace(QStringLiteral("[85, 75]"),
                                                                                          QStringLiteral("[85, -9.2e18]"))}}) {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(content.toUtf8());
        }
        const CliRun solved = runCli({QStringLiteral("solve"), farFile, QStringLiteral("--json")});
        QCOMPARE(solved.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(solved.out.section(QLatin1Char('\n'), 0, 0).toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("cost")).toInteger(), 445);
        QCOMPARE(o.value(QStringLiteral("peak_usage")).toInteger(), 50);
        QCOMPARE(o.value(QStringLiteral("pays_forbidden_costs")).toBool(true), false);
        QVERIFY2(o.value(QStringLiteral("proven_optimal")).toBool(), qPrintable(solved.out));
        QCOMPARE(solved.out.section(QLatin1Char('\n'), 1, 1), QStringLiteral("[0, 0, 2, 1, 0]"));

        const CliRun refused = runCli({QStringLiteral("solve"), negativeFile});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(negativeFile) && refused.err.contains(QStringLiteral("nodes.costs[3][1]"))
                     && refused.err.contains(QStringLiteral("is negative")),
                 qPrintable(refused.err));
    }

    // Every plan of this problem pays a forbidden cost (2e18 on the only strategy of
    // node 1; the best, [0, 0], costs 5 + 2e18 + 1): it fits the memory limit, but solve
    // must not call it feasible.
    void solveSaysWhenItsPlanPaysForbiddenCosts()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("forbidden.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"problem": {"name": "forbidden", "nodes": {"intervals": [[0, 2], [1, 3]],
            "costs": [[5, 7], [2000000000000000000]], "usages": [[1, 2], [1]]},
            "edges": {"nodes": [[0, 1]], "costs": [[1, 0]]}, "usage_limit": 3}})");
        out.close();
        const CliRun solved = runCli({QStringLiteral("solve"), file});
        QCOMPARE(solved.exitCode, 0);
        QCOMPARE(solved.out.section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("cost 2000000000000000006, fits the memory limit but pays forbidden costs (every plan "
                                "does), peak usage 2, lower bound 2000000000000000006 (gap 0 %), proven optimal"));
        QCOMPARE(solved.out.section(QLatin1Char('\n'), 1, 1), QStringLiteral("[0, 0]"));
        const CliRun json = runCli({QStringLiteral("solve"), file, QStringLiteral("--json")});
        const QJsonObject o = QJsonDocument::fromJson(json.out.section(QLatin1Char('\n'), 0, 0).toUtf8()).object();
        QVERIFY(o.value(QStringLiteral("feasible")).toBool());
        QVERIFY(o.value(QStringLiteral("pays_forbidden_costs")).toBool());
    }

    void badFileExitsNonZeroNamingTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("missing.onnx"));
        const CliRun run = runCli({QStringLiteral("inspect"), path});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(path) && run.err.contains(QStringLiteral("no such file")), qPrintable(run.err));
    }

    void usageErrorsExitTwo()
    {
        QCOMPARE(runCli({}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("frobnicate")}).exitCode, 2);
        const CliRun unknown = runCli({QStringLiteral("inspect"), dataFile("gpt2.ts.stripped.onnx"), QStringLiteral("--jsn")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains(QStringLiteral("--jsn")));
    }

    void readmeListsEveryCommandAndOptionOfHelp()
    {
        const CliRun help = runCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const OptionsByCommand fromHelp = helpCommands(help.out);
        const OptionsByCommand fromReadme = readmeCommands();
        QCOMPARE(fromHelp.keys(), fromReadme.keys());
        QVERIFY2(fromHelp.value(QStringLiteral("search")).contains(QStringLiteral("--pin")), qPrintable(help.out));
        for (auto it = fromHelp.begin(); it != fromHelp.end(); ++it) {
            const QSet<QString> readme = fromReadme.value(it.key());
            QVERIFY2(readme == it.value(),
                     qPrintable(it.key() + QStringLiteral(": only in --help: ") +
                                QStringList((it.value() - readme).values()).join(QLatin1Char(' ')) +
                                QStringLiteral("; only in the README: ") +
                                QStringList((readme - it.value()).values()).join(QLatin1Char(' '))));
        }
        // `help` is --help; a command's --help shows its options with their help.
        QCOMPARE(runCli({QStringLiteral("help")}).out, help.out);
        const CliRun searchHelp = runCli({QStringLiteral("search"), QStringLiteral("--help")});
        QCOMPARE(searchHelp.exitCode, 0);
        QVERIFY2(searchHelp.out.contains(QRegularExpression(QStringLiteral("--memory-limit GB\\s+memory per device"))),
                 qPrintable(searchHelp.out));
    }

    // Numbers too large for their type were truncated or saturated: plan 4294967299 was
    // plan 3, mesh 4294967298x4 was 2x4, 4294967297 nodes were 1.
    void numbersOutOfRangeAreUsageErrorsNamingTheOption_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        const QString model = dataFile("gpt2.ts.stripped.onnx");
        const QString evaluate = QStringLiteral("evaluate");
        QTest::newRow("mesh") << QStringList{evaluate, model, QStringLiteral("--mesh"), QStringLiteral("4294967298x4")}
                              << QStringLiteral("--mesh");
        QTest::newRow("nodes") << QStringList{evaluate, model, QStringLiteral("--nodes"), QStringLiteral("4294967297")}
                               << QStringLiteral("--nodes");
        QTest::newRow("batch") << QStringList{evaluate, model, QStringLiteral("--batch=18446744073709551615")}
                               << QStringLiteral("--batch");
        QTest::newRow("negative batch") << QStringList{evaluate, model, QStringLiteral("--batch"), QStringLiteral("-16")}
                                        << QStringLiteral("--batch");
        QTest::newRow("seq") << QStringList{QStringLiteral("search"), model, QStringLiteral("--seq"), QStringLiteral("2x")}
                             << QStringLiteral("--seq");
        QTest::newRow("time limit") << QStringList{QStringLiteral("solve"), model, QStringLiteral("--time-limit"),
                                                   QStringLiteral("inf")}
                                    << QStringLiteral("--time-limit");
        QTest::newRow("optimizer") << QStringList{evaluate, model, QStringLiteral("--optimizer"), QStringLiteral("lion")}
                                   << QStringLiteral("--optimizer");
        for (const char* factor : {"0", "-1", "nan", "inf", "2000"})
            QTest::newRow(qPrintable(QStringLiteral("capacity factor ") + QLatin1String(factor)))
                << QStringList{evaluate, model, QStringLiteral("--capacity-factor"), QLatin1String(factor)}
                << QStringLiteral("--capacity-factor");
    }

    void numbersOutOfRangeAreUsageErrorsNamingTheOption()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        const CliRun run = runCli(args + QStringList{QStringLiteral("--no-history")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(option + QStringLiteral(": needs ")), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    // --attention takes the kernels' names (flash2 for FlashAttention-2) and "fused", its
    // name before, at the same price; plain "flash" is refused with every name it takes and
    // what to write, in the same words as a plan file that says it (one name table).
    void attentionTakesFlash2AndFusedAlike()
    {
        const QStringList evaluate = {QStringLiteral("evaluate"), dataFile("llama.ts.stripped.onnx"),
                                      QStringLiteral("--mesh"), QStringLiteral("2x4"), QStringLiteral("--no-history"),
                                      QStringLiteral("--attention")};
        const CliRun flash2 = runCli(evaluate + QStringList{QStringLiteral("flash2")});
        const CliRun fused = runCli(evaluate + QStringList{QStringLiteral("fused")});
        QCOMPARE(flash2.exitCode, 0);
        QVERIFY2(flash2.out.contains(QStringLiteral(", flash2 attention")), qPrintable(flash2.out));
        QCOMPARE(fused.out, flash2.out);
        const CliRun flash1 = runCli(evaluate + QStringList{QStringLiteral("flash1")});
        QCOMPARE(flash1.exitCode, 0);
        QVERIFY(flash1.out != flash2.out);
        const CliRun plain = runCli(evaluate + QStringList{QStringLiteral("flash")});
        QCOMPARE(plain.exitCode, 2);
        const QString refusal = QStringLiteral("is 'flash', not flash2, cudnn, triton, flash1, unfused or fused (read as "
                                               "flash2): write flash2 for FlashAttention-2 or flash1 for FlashAttention 1.x");
        QVERIFY2(plain.err.contains(QStringLiteral("--attention: ") + refusal), qPrintable(plain.err));
        QTemporaryDir dir;
        const QString planFile = dir.filePath(QStringLiteral("plan.json"));
        QCOMPARE(runCli(evaluate + QStringList{QStringLiteral("flash2"), QStringLiteral("-o"), planFile}).exitCode, 0);
        QFile file(planFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray plan = file.readAll();
        file.close();
        QVERIFY(plan.contains("\"attention\": \"flash2\""));
        plan.replace("\"attention\": \"flash2\"", "\"attention\": \"flash\"");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(plan), plan.size());
        file.close();
        const CliRun fromPlan = runCli({QStringLiteral("evaluate"), dataFile("llama.ts.stripped.onnx"), QStringLiteral("--plan"),
                                        planFile, QStringLiteral("--no-history")});
        QCOMPARE(fromPlan.exitCode, 1);
        QVERIFY2(fromPlan.err.contains(QStringLiteral("workload.attention ") + refusal), qPrintable(fromPlan.err));
    }

    // A plan file is priced with the workload it stores; an option replaces only what it names.
    void evaluatePlanFileKeepsItsWorkload()
    {
        QTemporaryDir dir;
        const QString planFile = dir.filePath(QStringLiteral("plan.json"));
        const QStringList model = {QStringLiteral("evaluate"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                   QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                                   QStringLiteral("--no-history"), QStringLiteral("--json")};
        const CliRun first = runCli(model + QStringList{QStringLiteral("--mesh"), QStringLiteral("2x8"),
                                                        QStringLiteral("--batch"), QStringLiteral("16"),
                                                        QStringLiteral("--seq"), QStringLiteral("4096"),
                                                        QStringLiteral("--micro-batch"), QStringLiteral("2"),
                                                        QStringLiteral("--recompute"), QStringLiteral("full"),
                                                        QStringLiteral("-o"), planFile});
        QCOMPARE(first.exitCode, 0);
        const QJsonObject a = QJsonDocument::fromJson(first.out.toUtf8()).object();
        const CliRun again = runCli(model + QStringList{QStringLiteral("--plan"), planFile});
        QCOMPARE(again.exitCode, 0);
        const QJsonObject b = QJsonDocument::fromJson(again.out.toUtf8()).object();
        QCOMPARE(b.value(QStringLiteral("batch")).toInteger(), 16);
        QCOMPARE(b.value(QStringLiteral("sequence")).toInteger(), 4096);
        QCOMPARE(b.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble(),
                 a.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble());
        QCOMPARE(b.value(QStringLiteral("hbm_bytes")).toDouble(), a.value(QStringLiteral("hbm_bytes")).toDouble());
        // --seq 2048 halves the tokens and keeps the file's batch, micro-batch and recomputation.
        const CliRun shorter = runCli(model + QStringList{QStringLiteral("--plan"), planFile, QStringLiteral("--seq"),
                                                          QStringLiteral("2048")});
        QCOMPARE(shorter.exitCode, 0);
        const QJsonObject c = QJsonDocument::fromJson(shorter.out.toUtf8()).object();
        QCOMPARE(c.value(QStringLiteral("batch")).toInteger(), 16);
        QCOMPARE(c.value(QStringLiteral("sequence")).toInteger(), 2048);
        // A micro-batch the file's batch does not take on its 2 data-parallel ranks.
        const CliRun odd = runCli(model + QStringList{QStringLiteral("--plan"), planFile, QStringLiteral("--micro-batch"),
                                                      QStringLiteral("3")});
        QCOMPARE(odd.exitCode, 2);
        QVERIFY2(odd.err.contains(planFile + QStringLiteral(": workload.batch: global batch 16 is not a multiple of "
                                                            "micro-batch 3 x data-parallel 2")),
                 qPrintable(odd.err));
    }

    // An imported Megatron-LM or torchtitan file keeps its workload: evaluated without
    // options it prices what the plan it came from priced (260 s and 1.4 TB for GPT-3's
    // plan before, at the command's defaults).
    void importedStackFilesCarryTheirWorkload()
    {
        QTemporaryDir dir;
        const QString model = dataFile("llama3_8b_shape.dynamo.stripped.onnx");
        const QStringList cluster = {QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                                     QStringLiteral("--no-history"), QStringLiteral("--json")};
        // The ZeRO stage and recomputation each stack writes as it is: Megatron-LM's
        // distributed optimizer and selective recomputation (attention's core), its
        // Megatron-FSDP (--use-megatron-fsdp, optim_grads_params), torchtitan's
        // FSDP2 and full recomputation replayed by PyTorch's non-reentrant checkpoint (v0.2's
        // TOML; its selective recomputation is its op-level policy, which evaluate's
        // --recompute selective is not: test_stack_targets round-trips that through a
        // torchtitan search). Each stack's attention as it keeps grouped-query K/V: Megatron-LM's
        // cuDNN with their own heads, torchtitan's FlashAttention-2 repeated per query head
        // (what evaluate's kernels keep without a stack named). Megatron-LM's gradient buffer
        // zeroed every step; its fused optimizer step (written --use-precision-aware-optimizer)
        // keeps the masters as remainders of the bf16 weights, torchtitan's whole. Both clip
        // the gradients by their norm: Megatron-LM scales them above the limit, torchtitan
        // every step.
        for (const auto& [format, zero, implementation, recompute, replay, attention, gradients, step, clip] :
             {std::tuple{"megatron", "1", "fsdp2", "selective", "whole-block", "cudnn", "zeroed-each-step",
                         "fused-remainders", "above-limit"},
              std::tuple{"megatron", "3", "megatron-fsdp", "selective", "whole-block", "cudnn", "zeroed-each-step",
                         "fused-remainders", "above-limit"},
              std::tuple{"torchtitan-toml", "3", "fsdp2", "full", "stops-early", "flash2", "persistent", "fused",
                         "every-step"}}) {
            const QString name = QString::fromLatin1(format);
            const QString plan = dir.filePath(name + QStringLiteral("-plan.json"));
            const CliRun priced = runCli(QStringList{QStringLiteral("evaluate"), model, QStringLiteral("--mesh"),
                                                     QStringLiteral("2x8"), QStringLiteral("--plan"),
                                                     QStringLiteral("megatron-sp"), QStringLiteral("--batch"),
                                                     QStringLiteral("32"), QStringLiteral("--seq"), QStringLiteral("4096"),
                                                     QStringLiteral("--micro-batch"), QStringLiteral("2"),
                                                     QStringLiteral("--recompute"), QString::fromLatin1(recompute),
                                                     QStringLiteral("--checkpoint-replay"), QString::fromLatin1(replay),
                                                     QStringLiteral("--zero"), QString::fromLatin1(zero),
                                                     QStringLiteral("--zero-implementation"),
                                                     QString::fromLatin1(implementation), QStringLiteral("--attention"),
                                                     QString::fromLatin1(attention), QStringLiteral("--gradient-lifetime"),
                                                     QString::fromLatin1(gradients), QStringLiteral("--optimizer-step"),
                                                     QString::fromLatin1(step), QStringLiteral("--clip-gradients"),
                                                     QString::fromLatin1(clip), QStringLiteral("-o"), plan} +
                                         cluster);
            QCOMPARE(priced.exitCode, 0);
            const QJsonObject original = QJsonDocument::fromJson(priced.out.toUtf8()).object();
            const QString file = dir.filePath(name + QStringLiteral(".stack"));
            QCOMPARE(runCli({QStringLiteral("export"), plan, QStringLiteral("--model"), model, QStringLiteral("--format"),
                             name, QStringLiteral("-o"), file})
                         .exitCode,
                     0);
            const QString imported = dir.filePath(name + QStringLiteral(".json"));
            const CliRun read = runCli({QStringLiteral("import-plan"), file, QStringLiteral("--model"), model,
                                        QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"), QStringLiteral("-o"),
                                        imported});
            QVERIFY2(read.exitCode == 0, qPrintable(read.err));
            const CliRun again = runCli(QStringList{QStringLiteral("evaluate"), model, QStringLiteral("--plan"), imported} +
                                        cluster);
            QVERIFY2(again.exitCode == 0, qPrintable(again.err));
            const QJsonObject b = QJsonDocument::fromJson(again.out.toUtf8()).object();
            QCOMPARE(b.value(QStringLiteral("batch")).toInteger(), 32);
            QCOMPARE(b.value(QStringLiteral("sequence")).toInteger(), 4096);
            QCOMPARE(b.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble(),
                     original.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble());
            const auto memory = [](const QJsonObject& o) {
                return o.value(QStringLiteral("total")).toObject().value(QStringLiteral("memory_bytes")).toObject();
            };
            QCOMPARE(memory(b), memory(original));
        }
        // Replayed whole (evaluate's default), full recomputation is not what torchtitan runs:
        // exported with the cluster, the file is headed by the price of the plan it runs,
        // which is what it imports back as.
        const QString plan = dir.filePath(QStringLiteral("whole-block.json"));
        QCOMPARE(runCli(QStringList{QStringLiteral("evaluate"), model, QStringLiteral("--mesh"), QStringLiteral("2x8"),
                                    QStringLiteral("--plan"), QStringLiteral("megatron-sp"), QStringLiteral("--batch"),
                                    QStringLiteral("32"), QStringLiteral("--seq"), QStringLiteral("4096"),
                                    QStringLiteral("--recompute"), QStringLiteral("full"), QStringLiteral("--zero"),
                                    QStringLiteral("3"), QStringLiteral("-o"), plan} +
                        cluster)
                     .exitCode,
                 0);
        const QString file = dir.filePath(QStringLiteral("whole-block.toml"));
        QCOMPARE(runCli({QStringLiteral("export"), plan, QStringLiteral("--model"), model, QStringLiteral("--format"),
                         QStringLiteral("torchtitan-toml"), QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                         QStringLiteral("-o"), file})
                     .exitCode,
                 0);
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(written.readAll());
        QVERIFY2(text.contains(QStringLiteral("full recomputation replaying whole blocks")), qPrintable(text));
        const QRegularExpressionMatch head =
            QRegularExpression(QStringLiteral("expresses, priced ([0-9.]+) ms")).match(text);
        QVERIFY2(head.hasMatch(), qPrintable(text));
        const QString imported = dir.filePath(QStringLiteral("whole-block-back.json"));
        QCOMPARE(runCli({QStringLiteral("import-plan"), file, QStringLiteral("--model"), model, QStringLiteral("--cluster"),
                         QStringLiteral("dgx-h100x2"), QStringLiteral("-o"), imported})
                     .exitCode,
                 0);
        const CliRun back = runCli(QStringList{QStringLiteral("evaluate"), model, QStringLiteral("--plan"), imported} +
                                   cluster);
        QCOMPARE(back.exitCode, 0);
        const double stepMs = QJsonDocument::fromJson(back.out.toUtf8())
                                  .object()
                                  .value(QStringLiteral("total"))
                                  .toObject()
                                  .value(QStringLiteral("step_seconds"))
                                  .toDouble() *
                              1e3;
        QCOMPARE(QString::number(stepMs, 'f', 3), head.captured(1));
    }

    void workloadsThatContradictThemselvesAreRefused()
    {
        const QStringList evaluate = {QStringLiteral("evaluate"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                      QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                                      QStringLiteral("--mesh"), QStringLiteral("2x8"), QStringLiteral("--no-history")};
        const CliRun odd = runCli(evaluate + QStringList{QStringLiteral("--batch"), QStringLiteral("17"),
                                                         QStringLiteral("--micro-batch"), QStringLiteral("1")});
        QCOMPARE(odd.exitCode, 2);
        QVERIFY2(odd.err.contains(QStringLiteral("--batch: global batch 17 is not a multiple of micro-batch 1 x "
                                                 "data-parallel 2")),
                 qPrintable(odd.err));
        const CliRun search = runCli({QStringLiteral("search"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                      QStringLiteral("--batch"), QStringLiteral("16"), QStringLiteral("--micro-batch"),
                                      QStringLiteral("32"), QStringLiteral("--no-history")});
        QCOMPARE(search.exitCode, 2);
        QVERIFY2(search.err.contains(QStringLiteral("a micro-step alone takes 32 sequences")), qPrintable(search.err));
        // Experts that take less than a token each priced a step as if they did no work.
        QTemporaryDir dir;
        const QString moe = synthesized(dir, "mixtral-8x7b", 1, "moe.onnx");
        QVERIFY(!moe.isEmpty());
        for (const QString& command : {QStringLiteral("evaluate"), QStringLiteral("search")}) {
            const CliRun idle = runCli({command, moe, QStringLiteral("--capacity-factor"), QStringLiteral("5e-324"),
                                        QStringLiteral("--no-history")});
            QCOMPARE(idle.exitCode, 2);
            QVERIFY2(idle.err.contains(QStringLiteral("--capacity-factor: capacity factor 4.94066e-324 leaves each of 8 "
                                                      "experts less than one of the")),
                     qPrintable(idle.err));
        }
        // Role names in capitals are the roles: a pipeline of 2 stages, not a 3-D tensor mesh.
        const CliRun upper = runCli(evaluate.mid(0, 4) + QStringList{QStringLiteral("--mesh"), QStringLiteral("PP=2,DP=1,TP=8"),
                                                                     QStringLiteral("--no-history"), QStringLiteral("--json")});
        const CliRun lower = runCli(evaluate.mid(0, 4) + QStringList{QStringLiteral("--mesh"), QStringLiteral("pp=2,dp=1,tp=8"),
                                                                     QStringLiteral("--no-history"), QStringLiteral("--json")});
        QCOMPARE(upper.exitCode, 0);
        QCOMPARE(upper.out, lower.out);
    }

    // --fp8-parameters on: FP8 weights without their 16-bit copy, refused without FP8 training
    // (naming the option), kept by the plan file evaluate writes, which prices the same;
    // --fp8-parameters off drops the plan file's and keeps its FP8 recipe.
    void fp8ParametersNeedFp8TrainingAndAreKept()
    {
        const QStringList evaluate = {QStringLiteral("evaluate"), dataFile("llama3_8b_shape.dynamo.stripped.onnx"),
                                      QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2"),
                                      QStringLiteral("--mesh"), QStringLiteral("2x8"), QStringLiteral("--no-history")};
        for (const QString& command : {QStringLiteral("evaluate"), QStringLiteral("search")}) {
            QStringList args = evaluate;
            args[0] = command;
            const CliRun refused = runCli(args + QStringList{QStringLiteral("--fp8-parameters"), QStringLiteral("on")});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(QStringLiteral("--fp8-parameters: FP8 weights without a 16-bit copy need FP8 "
                                                         "training (precision fp8 or mxfp8), not bf16")),
                     qPrintable(refused.err));
        }
        QTemporaryDir dir;
        const QString planFile = dir.filePath(QStringLiteral("fp8.json"));
        const QStringList fp8 = evaluate + QStringList{QStringLiteral("--precision"), QStringLiteral("fp8"),
                                                       QStringLiteral("--json")};
        const CliRun written = runCli(fp8 + QStringList{QStringLiteral("--fp8-parameters"), QStringLiteral("on"),
                                                        QStringLiteral("-o"), planFile});
        QCOMPARE(written.exitCode, 0);
        QFile file(planFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"fp8_parameters\": true"));
        const CliRun read = runCli(evaluate.mid(0, 4) + QStringList{QStringLiteral("--plan"), planFile,
                                                                     QStringLiteral("--no-history"), QStringLiteral("--json")});
        QCOMPARE(read.exitCode, 0);
        const CliRun copied = runCli(fp8);  // the 16-bit weights kept beside their FP8 copy
        QCOMPARE(copied.exitCode, 0);
        auto total = [](const CliRun& run, const char* key) {
            const QJsonObject t = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("total")).toObject();
            const QJsonValue value = t.value(QLatin1String(key));
            return value.isObject() ? value.toObject().value(QStringLiteral("total")).toDouble() : value.toDouble();
        };
        QCOMPARE(total(read, "step_seconds"), total(written, "step_seconds"));
        QCOMPARE(total(read, "memory_bytes"), total(written, "memory_bytes"));
        QVERIFY(total(written, "memory_bytes") < total(copied, "memory_bytes"));
        const CliRun turnedOff = runCli(evaluate.mid(0, 4) + QStringList{QStringLiteral("--plan"), planFile,
                                                                          QStringLiteral("--fp8-parameters"), QStringLiteral("off"),
                                                                          QStringLiteral("--no-history"), QStringLiteral("--json")});
        QCOMPARE(turnedOff.exitCode, 0);
        QCOMPARE(total(turnedOff, "step_seconds"), total(copied, "step_seconds"));
        QCOMPARE(total(turnedOff, "memory_bytes"), total(copied, "memory_bytes"));
        const CliRun misspelt = runCli(fp8 + QStringList{QStringLiteral("--fp8-parameters"), QStringLiteral("yes")});
        QCOMPARE(misspelt.exitCode, 2);
        QVERIFY2(misspelt.err.contains(QStringLiteral("--fp8-parameters")) && misspelt.err.contains(QStringLiteral("off")),
                 qPrintable(misspelt.err));
    }

    // 100,000 nodes under --mesh auto searched 187 s past a 20 s limit. The search stops
    // at the limit and says so, with meshes left unsearched (the whole search takes about
    // 7 CPU-seconds); how soon after the limit it stops is wall time, which load stretches.
    // SearchTest holds that through cancels the test controls: one inside the elimination
    // starts nothing more (aCancelledEliminationStartsNoIntegerProgram), one at the first
    // plan ends the solve with it (cancellationKeepsTheBestPlanSoFar), one after the last
    // mesh cuts only the comparisons (aLimitAfterTheLastMeshCutsOnlyTheComparisons).
    void searchTimeLimitIsAWall()
    {
        const CliRun run = runCli({QStringLiteral("search"), dataFile("gpt2.ts.stripped.onnx"), QStringLiteral("--nodes"),
                                   QStringLiteral("100000"), QStringLiteral("--mesh"), QStringLiteral("auto"),
                                   QStringLiteral("--time-limit"), QStringLiteral("1"), QStringLiteral("--no-history")});
        // How far it got depends on the CPU the process had: on an idle machine some meshes are
        // searched and the best plan so far is printed; on a crowded one there may be none yet,
        // which is an error saying so. Either way it stopped at the limit and says how far it got.
        const QString stopped = QStringLiteral("stopped at the time limit of 1 s \\([0-9.]+ s\\): ([0-9]+) of 184 "
                                               "mesh\\(es\\) searched to the end");
        const QRegularExpressionMatch match = QRegularExpression(stopped).match(run.err);
        QVERIFY2(match.hasMatch(), qPrintable(run.err));
        QVERIFY(match.captured(1).toInt() < 184);
        if (run.exitCode == 0) {
            QVERIFY(run.out.contains(QStringLiteral("best plan on")));
        } else {
            QCOMPARE(run.exitCode, 1);
            QCOMPARE(match.captured(1), QStringLiteral("0"));
            QVERIFY2(run.err.contains(QStringLiteral("no plan found yet")), qPrintable(run.err));
        }
    }

    // --mesh auto over the 8 GPUs of dgx-h100x1: on a terminal a bar under the "searching"
    // lines counts the meshes left down to 0 and names the best plan so far; to a pipe or
    // file only the lines, as before.
    void searchProgressBarOnlyOnATerminal()
    {
        const QStringList search{QStringLiteral("search"), dataFile("gpt2.ts.stripped.onnx"), QStringLiteral("--cluster"),
                                 QStringLiteral("dgx-h100x1"), QStringLiteral("--mesh"), QStringLiteral("auto"),
                                 QStringLiteral("--no-history")};
        const CliRun piped = runCli(search);
        QCOMPARE(piped.exitCode, 0);
        const QStringList lines = piped.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() > 2);
        for (const QString& line : lines)
            QVERIFY2(line.startsWith(QStringLiteral("searching [")) && line.endsWith(QStringLiteral(" ...")),
                     qPrintable(line));
        const qsizetype meshes = lines.size();

        const auto [exitCode, seen] = runCliOnTerminal(search);
        QCOMPARE(exitCode, 0);
        // Each redraw starts with a carriage return and "erase line"; the lines stay whole.
        const QStringList draws = seen.split(QStringLiteral("\r\033[K"), Qt::SkipEmptyParts);
        // The bars that count meshes (from the first mesh's first snapshot on).
        static const QRegularExpression counted(QStringLiteral("^\\[[#.]{10}\\] +[0-9]+ %  ([0-9]+) of ([0-9]+) meshes left"));
        QStringList bars;
        for (const QString& draw : draws) {
            if (counted.match(draw).hasMatch())
                bars << draw;
        }
        QVERIFY2(!bars.isEmpty(), qPrintable(seen));
        for (const QString& line : lines)
            QVERIFY2(seen.contains(line), qPrintable(line));
        QVERIFY2(bars.first().contains(QStringLiteral("  %1 of %1 meshes left").arg(meshes)), qPrintable(bars.first()));
        QVERIFY2(bars.last().contains(QStringLiteral("  0 of %1 meshes left; best ").arg(meshes)), qPrintable(bars.last()));
        QVERIFY2(QRegularExpression(QStringLiteral("best [0-9.]+ ms on [a-z]+=[0-9]+")).match(bars.last()).hasMatch(),
                 qPrintable(bars.last()));
        // The count only goes down; the bar is gone at the end.
        qsizetype left = meshes;
        for (const QString& bar : bars) {
            const qsizetype now = counted.match(bar).captured(1).toLongLong();
            QVERIFY(now <= left);
            left = now;
        }
        QVERIFY2(seen.endsWith(QStringLiteral("\r\033[K")), qPrintable(seen.right(80)));
    }

    void synthRefusesSizesItsPresetHasNot()
    {
        QTemporaryDir dir;
        const CliRun run = runCli({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("bert-base"),
                                   QStringLiteral("--experts"), QStringLiteral("8"), QStringLiteral("-o"),
                                   dir.filePath(QStringLiteral("bert.onnx"))});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--experts: preset 'bert-base' is a bert model")), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bert.onnx"))));
    }

    void capacityFactorIsOnTheWorkloadLineAndInThePlanFile()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const CliRun run = runCli({QStringLiteral("evaluate"), dataFile("gpt2.ts.stripped.onnx"), QStringLiteral("--plan"),
                                   QStringLiteral("dp"), QStringLiteral("--capacity-factor"), QStringLiteral("1.25"),
                                   QStringLiteral("--no-history"), QStringLiteral("-o"), plan});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("workload .*, capacity factor 1\\.25\n"))),
                 qPrintable(run.out));
        QFile file(plan);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"capacity_factor\": 1.25"));
    }

    // The baseline's report was a text line before the JSON.
    void searchBaselineJsonPrintsOnlyJson()
    {
        QTemporaryDir dir;
        const QString model = synthesized(dir, "gpt2-small", 2, "gpt2-2.onnx");
        QVERIFY(!model.isEmpty());
        // Overlap off: hiding communication under compute is priced exactly only after the
        // search (its program linearizes it), and the two optima are compared exactly. The
        // baseline's proof takes seconds idle; its limit (each solve's, 60 s by default) is
        // one a loaded machine does not reach.
        const CliRun run = runCli({QStringLiteral("search"), model, QStringLiteral("--mesh"), QStringLiteral("2x4"),
                                   QStringLiteral("--baseline"), QStringLiteral("--overlap"), QStringLiteral("off"),
                                   QStringLiteral("--target"), QStringLiteral("any"), QStringLiteral("--time-limit"),
                                   QStringLiteral("200"), QStringLiteral("--json"), QStringLiteral("--no-history")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
        const QJsonObject baseline =
            o.value(QStringLiteral("meshes")).toArray().at(0).toObject().value(QStringLiteral("baseline")).toObject();
        QCOMPARE(baseline.value(QStringLiteral("status")).toString(), QStringLiteral("optimal"));
        // The whole-graph optimum is no slower than TAP's plan, and no faster than its bound.
        const double step = o.value(QStringLiteral("meshes")).toArray().at(0).toObject().value(QStringLiteral("step_seconds")).toDouble();
        const double wholeGraph = baseline.value(QStringLiteral("step_seconds")).toDouble();
        QVERIFY2(wholeGraph > 0 && wholeGraph <= step * (1 + 1e-9), qPrintable(run.out));
        QVERIFY(baseline.value(QStringLiteral("bound_seconds")).toDouble() <= wholeGraph * (1 + 1e-9));
    }

    // Each mesh's step is that of its best plan, which may be an expert's or a stack's
    // own plan rather than the solve's. Llama-2-13B's shape with 4 layers on every mesh of
    // 8 H100s: the expert 'dp' beats the solve on [8], so the best plan's mesh reads
    // exactly the best plan's step, and no mesh reads faster than it.
    void searchMeshStepsAreTheirBestPlans()
    {
        QTemporaryDir dir;
        const QString model = synthesized(dir, "llama2-13b", 4, "llama2-4.onnx");
        QVERIFY(!model.isEmpty());
        const CliRun run = runCli({QStringLiteral("search"), model, QStringLiteral("--cluster"),
                                   QStringLiteral("dgx-h100x1"), QStringLiteral("--mesh"), QStringLiteral("auto"),
                                   QStringLiteral("--batch"), QStringLiteral("16"), QStringLiteral("--seq"),
                                   QStringLiteral("4096"), QStringLiteral("--target"), QStringLiteral("any"),
                                   QStringLiteral("--json"), QStringLiteral("--no-history")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const double best = o.value(QStringLiteral("best")).toObject().value(QStringLiteral("step_seconds")).toDouble();
        QVERIFY2(best > 0, qPrintable(run.out));
        bool bestMeshListed = false;
        for (const QJsonValue& each : o.value(QStringLiteral("meshes")).toArray()) {
            const QJsonObject mesh = each.toObject();
            const double step = mesh.value(QStringLiteral("step_seconds")).toDouble();
            QVERIFY2(step >= best, qPrintable(mesh.value(QStringLiteral("mesh")).toString()));
            if (mesh.value(QStringLiteral("mesh")) == o.value(QStringLiteral("best_mesh"))) {
                bestMeshListed = true;
                QCOMPARE(step, best);
            }
        }
        QVERIFY(bestMeshListed);
    }

    // A plan found by a stack's own search is named by it and says whose implementations
    // priced it, in its plan file, evaluate, its export's header and what import-plan
    // reads back, at the searched price throughout. Llama-2-13B's shape with 4 layers,
    // torchtitan on [2, 4] of 8 H100s, 16 x 4096. An option that names another ZeRO
    // implementation prices it with none in particular.
    void aStackSearchsPlanKeepsItsNameAndImplementations()
    {
        QTemporaryDir dir;
        const QString model = synthesized(dir, "llama2-13b", 4, "llama2-4.onnx");
        QVERIFY(!model.isEmpty());
        const QStringList cluster = {QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"),
                                     QStringLiteral("--no-history"), QStringLiteral("--json")};
        const QString plan = dir.filePath(QStringLiteral("torchtitan-plan.json"));
        const CliRun search = runCli(QStringList{QStringLiteral("search"), model, QStringLiteral("--mesh"),
                                                 QStringLiteral("2x4"), QStringLiteral("--batch"), QStringLiteral("16"),
                                                 QStringLiteral("--seq"), QStringLiteral("4096"), QStringLiteral("--target"),
                                                 QStringLiteral("torchtitan"), QStringLiteral("-o"), plan} +
                                     cluster);
        QVERIFY2(search.exitCode == 0, qPrintable(search.err));
        const QJsonObject searched = QJsonDocument::fromJson(search.out.toUtf8()).object();
        QCOMPARE(searched.value(QStringLiteral("implementations")).toString(), QStringLiteral("torchtitan"));
        const double step = searched.value(QStringLiteral("best")).toObject().value(QStringLiteral("step_seconds")).toDouble();
        QVERIFY(step > 0);
        const auto evaluated = [&](const QString& file, const QStringList& options = {}) {
            const CliRun run = runCli(QStringList{QStringLiteral("evaluate"), model, QStringLiteral("--plan"), file} +
                                      options + cluster);
            return QJsonDocument::fromJson(run.out.toUtf8()).object();
        };
        const QJsonObject reopened = evaluated(plan);
        QCOMPARE(reopened.value(QStringLiteral("plan")).toString(), QStringLiteral("torchtitan-layout"));
        QCOMPARE(reopened.value(QStringLiteral("implementations")).toString(), QStringLiteral("torchtitan"));
        QCOMPARE(reopened.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble(), step);

        const QString exported = dir.filePath(QStringLiteral("plan-torchtitan.py"));
        QCOMPARE(runCli({QStringLiteral("export"), plan, QStringLiteral("--model"), model, QStringLiteral("--format"),
                         QStringLiteral("torchtitan"), QStringLiteral("-o"), exported})
                     .exitCode,
                 0);
        QFile file(exported);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.startsWith(QStringLiteral("# torchtitan config for Tapestry plan \"torchtitan-layout\"")),
                 qPrintable(text.left(200)));
        const QString back = dir.filePath(QStringLiteral("back.json"));
        const CliRun read = runCli({QStringLiteral("import-plan"), exported, QStringLiteral("--model"), model,
                                    QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"), QStringLiteral("-o"), back});
        QVERIFY2(read.exitCode == 0, qPrintable(read.err));
        const QJsonObject imported = evaluated(back);
        QCOMPARE(imported.value(QStringLiteral("implementations")).toString(), QStringLiteral("torchtitan"));
        QCOMPARE(imported.value(QStringLiteral("total")).toObject().value(QStringLiteral("step_seconds")).toDouble(), step);

        const QJsonObject fsdp1 = evaluated(plan, {QStringLiteral("--zero-implementation"), QStringLiteral("fsdp")});
        QCOMPARE(fsdp1.value(QStringLiteral("implementations")).toString(), QStringLiteral("any"));
    }

    // export writes the plan for the training stacks, and import-plan reads the Hugging
    // Face tp_plan back to the same plan (exported again, the same text); search --mesh
    // auto --json tries every mesh of the cluster and names the fastest fitting one.
    void exportImportRoundTripAndSearchEveryMesh()
    {
        QTemporaryDir dir;
        const auto [model, plan] = gpt2MegatronPlan(dir);
        QVERIFY(!plan.isEmpty());
        auto exportAs = [&](const QString& from, const char* format, const QString& to) {
            return runCli({QStringLiteral("export"), from, QStringLiteral("--model"), model, QStringLiteral("--format"),
                           QString::fromLatin1(format), QStringLiteral("-o"), to});
        };
        auto text = [](const QString& path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        const QString pytorch = dir.filePath(QStringLiteral("plan.py"));
        QCOMPARE(exportAs(plan, "pytorch", pytorch).exitCode, 0);
        QVERIFY2(text(pytorch).contains(QStringLiteral("ColwiseParallel")), qPrintable(text(pytorch)));
        const QString hf = dir.filePath(QStringLiteral("tp_plan.json"));
        QCOMPARE(exportAs(plan, "hf", hf).exitCode, 0);
        QVERIFY(text(hf).contains(QStringLiteral("colwise")));
        const QString imported = dir.filePath(QStringLiteral("imported.json"));
        const CliRun read = runCli({QStringLiteral("import-plan"), hf, QStringLiteral("--model"), model,
                                    QStringLiteral("--mesh"), QStringLiteral("2x4"), QStringLiteral("-o"), imported});
        QVERIFY2(read.exitCode == 0, qPrintable(read.err));
        const QString again = dir.filePath(QStringLiteral("tp_plan_again.json"));
        QCOMPARE(exportAs(imported, "hf", again).exitCode, 0);
        QCOMPARE(text(again), text(hf));

        const CliRun search = runCli({QStringLiteral("search"), model, QStringLiteral("--mesh"), QStringLiteral("auto"),
                                      QStringLiteral("--json"), QStringLiteral("--no-history")});
        QVERIFY2(search.exitCode == 0, qPrintable(search.err));
        const QJsonObject o = QJsonDocument::fromJson(search.out.toUtf8()).object();
        const QJsonArray meshes = o.value(QStringLiteral("meshes")).toArray();
        QVERIFY(meshes.size() > 1);  // dgx-h100x1: [8], [2, 4], [4, 2]
        QString fastest;
        double fastestStep = 0;
        for (const QJsonValue& mesh : meshes) {
            const QJsonObject m = mesh.toObject();
            const double step = m.value(QStringLiteral("step_seconds")).toDouble();
            if (m.value(QStringLiteral("fits_in_memory")).toBool() && (fastest.isEmpty() || step < fastestStep)) {
                fastest = m.value(QStringLiteral("mesh")).toString();
                fastestStep = step;
            }
        }
        QCOMPARE(o.value(QStringLiteral("best_mesh")).toString(), fastest);
        QCOMPARE(o.value(QStringLiteral("best")).toObject().value(QStringLiteral("step_seconds")).toDouble(), fastestStep);
    }

    // Llama-2-70B's shape in a pipeline of 2 stages x data parallel 8 on 2 x 8 H100 with
    // ZeRO 3, written for Megatron-LM, which runs FSDP only without a pipeline: the file runs
    // the distributed optimizer (ZeRO 1), whose whole bf16 weights and gradients per stage
    // (34.5 B parameters x 4 bytes = 138 GB, plus Adam's fp32 states over 8 ranks) exceed the
    // 80 GB of an H100. The export says both prices and that the file's plan does not fit, on
    // stderr and at the file's head.
    void exportSaysWhenTheNearestStackPlanDoesNotFit()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("llama2-70b.onnx"));
        QCOMPARE(runCli({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("llama2-70b"),
                         QStringLiteral("-o"), model})
                     .exitCode,
                 0);
        const QString plan = dir.filePath(QStringLiteral("zero3.json"));
        const CliRun priced = runCli({QStringLiteral("evaluate"), model, QStringLiteral("--cluster"),
                                      QStringLiteral("dgx-h100x2"), QStringLiteral("--mesh"), QStringLiteral("pp=2,dp=8"),
                                      QStringLiteral("--plan"), QStringLiteral("dp"), QStringLiteral("--zero"),
                                      QStringLiteral("3"), QStringLiteral("--recompute"), QStringLiteral("full"),
                                      QStringLiteral("--batch"), QStringLiteral("16"), QStringLiteral("--seq"),
                                      QStringLiteral("2048"), QStringLiteral("--no-history"), QStringLiteral("-o"), plan});
        QVERIFY2(priced.exitCode == 0, qPrintable(priced.err));
        QVERIFY2(priced.out.contains(QStringLiteral("(fits)")), qPrintable(priced.out));
        const QString megatron = dir.filePath(QStringLiteral("megatron.sh"));
        const CliRun written = runCli({QStringLiteral("export"), plan, QStringLiteral("--model"), model,
                                       QStringLiteral("--format"), QStringLiteral("megatron"), QStringLiteral("-o"),
                                       megatron});
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        const QRegularExpression filePrice(QStringLiteral("priced ([0-9.]+) ms and ([0-9.]+) GB per GPU"));
        const QRegularExpressionMatch match = filePrice.match(written.err);
        QVERIFY2(match.hasMatch(), qPrintable(written.err));
        QVERIFY2(match.captured(2).toDouble() > 138, qPrintable(written.err));
        QVERIFY2(written.err.contains(QStringLiteral("The file's plan does not fit in the GPU's 80.00 GB.")),
                 qPrintable(written.err));
        QFile file(megatron);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(file.readAll()).contains(QStringLiteral("# The file's plan does not fit in the GPU's 80.00 GB.")));
    }

    // A plan's devices (pipeline stages x its mesh) must be the GPUs of its cluster: the
    // one it names (a preset, or one scaled by --nodes) or --cluster. export and
    // import-plan accepted a [2, 8] plan made for the 8 GPUs of dgx-h100x1.
    void planFilesWhoseMeshIsNotTheClustersGpusAreRefused()
    {
        QTemporaryDir dir;
        const auto [model, plan] = gpt2MegatronPlan(dir);
        QVERIFY(!plan.isEmpty());
        QFile planFile(plan);
        QVERIFY(planFile.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(planFile.readAll());
        QVERIFY(text.contains(QStringLiteral("\"cluster\": \"dgx-h100x1\"")));
        auto variant = [&](const char* name, QString changed) {
            const QString path = dir.filePath(QString::fromLatin1(name));
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(changed.toUtf8()) > 0 ? path : QString();
        };
        const QString wide = variant("wide.json", QString(text).replace(QStringLiteral("\"size\": 4"),
                                                                        QStringLiteral("\"size\": 8")));
        const QString piped = variant("piped.json", QString(text).replace(
            QStringLiteral("\"schema_version\": 1,"),
            QStringLiteral("\"schema_version\": 1, \"pipeline\": {\"stages\": 2, \"schedule\": \"1f1b\"},")));
        const QString scaled = variant("scaled.json", QString(text)
            .replace(QStringLiteral("\"size\": 4"), QStringLiteral("\"size\": 8"))
            .replace(QStringLiteral("\"dgx-h100x1\""), QStringLiteral("\"dgx-h100x1 (2 nodes)\"")));
        auto exportOf = [&](const QString& from, const QStringList& extra = {}) {
            return runCli(QStringList{QStringLiteral("export"), from, QStringLiteral("--model"), model,
                                      QStringLiteral("--format"), QStringLiteral("pytorch"), QStringLiteral("-o"),
                                      dir.filePath(QStringLiteral("plan.py"))} + extra);
        };
        QCOMPARE(exportOf(plan).exitCode, 0);

        const CliRun wideExport = exportOf(wide);
        QCOMPARE(wideExport.exitCode, 1);
        QVERIFY2(wideExport.err.contains(wide + QStringLiteral(": does not fit the cluster: mesh [2, 8] has 16 devices "
                                                               "but cluster \"dgx-h100x1\" has 1 x 8 = 8 GPUs")),
                 qPrintable(wideExport.err));
        const CliRun wideImport = runCli({QStringLiteral("import-plan"), wide, QStringLiteral("--model"), model,
                                          QStringLiteral("-o"), dir.filePath(QStringLiteral("imported.json"))});
        QCOMPARE(wideImport.exitCode, 1);
        QVERIFY2(wideImport.err.contains(wide + QStringLiteral(": does not fit the cluster: mesh [2, 8]")),
                 qPrintable(wideImport.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("imported.json"))));

        const CliRun pipedExport = exportOf(piped);
        QCOMPARE(pipedExport.exitCode, 1);
        QVERIFY2(pipedExport.err.contains(piped + QStringLiteral(": does not fit the cluster (2 pipeline stages of mesh "
                                                                 "[2, 4]): mesh [2, 2, 4] has 16 devices")),
                 qPrintable(pipedExport.err));

        // The same plans on 16 GPUs: named by --cluster, or by the plan as --nodes scaled it.
        QCOMPARE(exportOf(wide, {QStringLiteral("--cluster"), QStringLiteral("dgx-h100x2")}).exitCode, 0);
        QCOMPARE(exportOf(piped, {QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"), QStringLiteral("--nodes"),
                                  QStringLiteral("2")})
                     .exitCode,
                 0);
        const CliRun scaledExport = exportOf(scaled);
        QVERIFY2(scaledExport.exitCode == 0, qPrintable(scaledExport.err));
    }

    // Inputs the campaign found accepted or misread, now errors naming the file.
    void badInputFilesAreNamedErrors()
    {
        QTemporaryDir dir;
        auto write = [&](const char* name, const QByteArray& text) {
            const QString path = dir.filePath(QString::fromUtf8(name));
            QFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
                return QString();
            return path;
        };
        const QString model = dataFile("llama.ts.stripped.onnx");
        // A Tapestry plan with a syntax error was read as a Python tp_plan.
        const QString brokenPlan = write("broken.json", "{ \"schema_version\": 1, \"mesh\": [ }");
        const CliRun imported = runCli({QStringLiteral("import-plan"), brokenPlan, QStringLiteral("--model"), model,
                                        QStringLiteral("-o"), dir.filePath(QStringLiteral("out.json"))});
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(brokenPlan + QStringLiteral(": line 1, column")) &&
                     !imported.err.contains(QStringLiteral("tp_plan")),
                 qPrintable(imported.err));
        // A .py file of no kind import-plan reads was asked for --mesh, as if it were a tp_plan.
        const QString script = write("train.py", "import torch\nmodel = torch.nn.Linear(2, 2)\n");
        const CliRun unknown = runCli({QStringLiteral("import-plan"), script, QStringLiteral("--model"), model,
                                       QStringLiteral("-o"), dir.filePath(QStringLiteral("out.json"))});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains(script + QStringLiteral(": has no dict: it is neither a Hugging Face tp_plan")) &&
                     !unknown.err.contains(QStringLiteral("--mesh")),
                 qPrintable(unknown.err));
        // A cluster with a bandwidth of 1e-300 B/s priced a step at inf ms.
        const QString cluster = write("slow.json", R"({"name": "slow", "nodes": 1, "gpusPerNode": 8,
            "gpu": {"name": "G", "peakFlopsPerSecond": 1e15, "hbmBytes": 80000000000, "hbmBytesPerSecond": 3e12},
            "intraNode": {"bytesPerSecond": 1e-300, "latencySeconds": 3e-6},
            "interNode": {"bytesPerSecond": 48e9, "latencySeconds": 6e-6}})");
        const CliRun evaluated = runCli({QStringLiteral("evaluate"), model, QStringLiteral("--cluster"), cluster,
                                         QStringLiteral("--no-history")});
        QCOMPARE(evaluated.exitCode, 1);
        QVERIFY2(evaluated.err.contains(cluster + QStringLiteral(": intraNode.bytesPerSecond: must be from")),
                 qPrintable(evaluated.err));
        QVERIFY(evaluated.out.isEmpty());
        // 2^53 + 1 was read as 2^53: the total was one short.
        const QString problem = write("two.json", R"({"problem": {"nodes": {"intervals": [[0, 1], [0, 1]],
            "costs": [[9007199254740993], [1]], "usages": [[0], [0]]}, "edges": {"nodes": [], "costs": []}}})");
        const CliRun solved = runCli({QStringLiteral("solve"), problem, QStringLiteral("--json"),
                                      QStringLiteral("--time-limit"), QStringLiteral("5")});
        QCOMPARE(solved.exitCode, 0);
        QVERIFY2(solved.out.contains(QStringLiteral("\"cost\": 9007199254740994,")), qPrintable(solved.out));
    }

    // A WAL history in a folder the user may not write: `list` failed with "attempt to write
    // a readonly database". Run as an unprivileged user (root writes anywhere): directly,
    // or as nobody through setpriv when the test runs as root.
    void readOnlyWalHistoryListsAndShows()
    {
        QStringList runAs;
        if (geteuid() == 0) {
            if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
                QSKIP("running as root without setpriv: no user the folder's permissions stop");
            runAs = {QStringLiteral("setpriv"), QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                     QStringLiteral("--clear-groups")};
        }
        QTemporaryDir dir;
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                              QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
        const QString history = dir.filePath(QStringLiteral("h.sqlite"));
        QCOMPARE(runCli({QStringLiteral("evaluate"), dataFile("gpt2.ts.stripped.onnx"), QStringLiteral("--mesh"),
                         QStringLiteral("8"), QStringLiteral("--plan"), QStringLiteral("dp"), QStringLiteral("--history"),
                         history})
                     .exitCode,
                 0);
        // The CLI where the other user may run it.
        const QString cli = dir.filePath(QStringLiteral("tapestry-cli"));
        QVERIFY(QFile::copy(QStringLiteral(TAPESTRY_CLI_PATH), cli));
        const QFile::Permissions readable = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
        const QFile::Permissions runnable = readable | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther;
        QFile::setPermissions(cli, runnable);
        // One folder with a write-ahead log beside the file (read through a private copy),
        // one without (read as it lies).
        for (const bool log : {true, false}) {
            const QString folder = dir.filePath(log ? QStringLiteral("with-log") : QStringLiteral("without-log"));
            QVERIFY(QDir().mkpath(folder));
            const QString file = folder + QStringLiteral("/h.sqlite");
            QVERIFY(QFile::copy(history, file));
            QFile::setPermissions(file, readable | QFile::WriteOwner);
            if (log) {
                QFile wal(file + QStringLiteral("-wal"));
                QVERIFY(wal.open(QIODevice::WriteOnly));
                wal.close();
                QFile::setPermissions(wal.fileName(), readable | QFile::WriteOwner);
            }
            QFile::setPermissions(folder, runnable);
            for (const QString& action : {QStringLiteral("list"), QStringLiteral("show")}) {
                QStringList command = runAs;
                command << cli << QStringLiteral("history") << action << QStringLiteral("--history") << file;
                if (action == QStringLiteral("show"))
                    command << QStringLiteral("1");
                QProcess process;
                process.start(command.takeFirst(), command);
                QVERIFY(process.waitForFinished(60000));
                const QString out = QString::fromUtf8(process.readAllStandardOutput());
                const QString err = QString::fromUtf8(process.readAllStandardError());
                QVERIFY2(process.exitCode() == 0, qPrintable(err));
                QVERIFY2(out.contains(action == QStringLiteral("list") ? QStringLiteral("evaluate")
                                                                       : QStringLiteral("plan 1  dp")),
                         qPrintable(out));
                QVERIFY2(err.contains(log ? QStringLiteral("read through a private copy")
                                          : QStringLiteral("read as it lies (immutable)")),
                         qPrintable(err));
            }
            QFile::setPermissions(folder, runnable | QFile::WriteOwner);  // for the cleanup
        }
    }

    // A run file that says plain "flash" is read as FlashAttention 1.x, never silently:
    // validate says so once per file, however many runs say it; flash1 and flash2 get no note.
    void validateNotesThatPlainFlashIsFlashAttentionOne()
    {
        QTemporaryDir dir;
        const auto validateRuns = [&](const QString& first, const QString& second) {
            return runCli({QStringLiteral("validate"), runsFile(dir, first, {first, second})});
        };
        const CliRun plain = validateRuns(QStringLiteral("flash"), QStringLiteral("flash"));
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(plain.err.count(QStringLiteral("is read as FlashAttention 1.x")), 1);
        QVERIFY2(plain.err.contains(QStringLiteral("flash-runs.json: model.attention \"flash\"")) &&
                     plain.err.contains(QStringLiteral("should say \"flash2\"")),
                 qPrintable(plain.err));
        for (const QString& named : {QStringLiteral("flash1"), QStringLiteral("flash2")}) {
            const CliRun explicitRun = validateRuns(named, named);
            QCOMPARE(explicitRun.exitCode, 0);
            QVERIFY2(!explicitRun.err.contains(QStringLiteral("FlashAttention 1.x")), qPrintable(explicitRun.err));
        }
    }

    // A bad case is refused before anything is printed, the good one before it included:
    // no table header, no row, no note; the error names the file and the run.
    void validateRefusesABadCaseBeforePrintingAnything()
    {
        QTemporaryDir dir;
        const QString file = runsFile(dir, QStringLiteral("bad"),
                                      {QStringLiteral("flash"), QStringLiteral("flash2"), QStringLiteral("xformers")});
        for (const QStringList& json : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            const CliRun refused = runCli(QStringList{QStringLiteral("validate"), file} + json);
            QCOMPARE(refused.exitCode, 1);
            QCOMPARE(refused.out, QString());
            QVERIFY2(refused.err.startsWith(QStringLiteral("tapestry-cli validate: error: ") + file +
                                            QStringLiteral(": cases[2] (run2).model.attention: is 'xformers'")) &&
                         refused.err.count(QLatin1Char('\n')) == 1,
                     qPrintable(refused.err));
        }
        // Without the bad case the same runs are priced, a row each.
        const CliRun priced =
            runCli({QStringLiteral("validate"), runsFile(dir, QStringLiteral("good"),
                                                         {QStringLiteral("flash"), QStringLiteral("flash2")})});
        QCOMPARE(priced.exitCode, 0);
        QVERIFY2(priced.out.startsWith(QStringLiteral("case ")) && priced.out.contains(QStringLiteral("\nrun0 ")) &&
                     priced.out.contains(QStringLiteral("\nrun1 ")),
                 qPrintable(priced.out));
    }

    // A 6.6 B-parameter GPT with Adam and no ZeRO on 8 H100 keeps about 16 bytes per
    // parameter on every GPU, above the 74.5 GiB (80e9 bytes) the H100 preset plans with:
    // validate marks it, naming that limit as the preset's, not as the card's memory.
    void validateMarksAPeakAboveThePlanningLimit()
    {
        QTemporaryDir dir;
        const QString runs = runsFile(dir, QStringLiteral("big"), {QStringLiteral("flash2")});
        QFile file(runs);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString big = QString::fromUtf8(file.readAll())
                                .replace(QStringLiteral(R"("layers": 2,)"), QStringLiteral(R"("layers": 32,)"))
                                .replace(QStringLiteral(R"("hidden": 64, "heads": 4, "ffn_hidden": 256, "vocab": 128)"),
                                         QStringLiteral(R"("hidden": 4096, "heads": 32, "ffn_hidden": 16384, "vocab": 50304)"));
        file.close();
        QVERIFY(big.contains(QStringLiteral(R"("hidden": 4096)")));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QByteArray bigBytes = big.toUtf8();
        QCOMPARE(file.write(bigBytes), bigBytes.size());
        file.close();
        const CliRun validated = runCli({QStringLiteral("validate"), runs});
        QCOMPARE(validated.exitCode, 0);
        QVERIFY2(validated.out.contains(
                     QStringLiteral("above the 74.5 GiB the cluster plans with (gpu.hbmBytes, under the card's own): "
                                    "cannot run as priced")),
                 qPrintable(validated.out));
    }

    // calibrate on ../shared/validation's H100 runs of MPT 760M and 1B writes a cluster
    // file that evaluate and search take; asked for the inter-node bandwidth, which no
    // single-node run can exercise, it refuses, naming the runs file.
    void calibrateWritesAClusterTheOtherCommandsTake()
    {
        QFile shared(QStringLiteral(TAPESTRY_TEST_DATA_DIR "/../../../shared/validation/published-runs.json"));
        if (!shared.open(QIODevice::ReadOnly))
            QSKIP("../shared/validation/published-runs.json is not beside the checkout");
        const QJsonObject all = QJsonDocument::fromJson(shared.readAll()).object();
        QJsonArray small;
        QJsonArray oneNode;
        for (const QJsonValue& run : all.value(QStringLiteral("cases")).toArray()) {
            const QString name = run.toObject().value(QStringLiteral("name")).toString();
            if (!name.startsWith(QLatin1String("mpt-760m-")) && !name.startsWith(QLatin1String("mpt-1b-")))
                continue;
            small.append(run);
            if (name.contains(QLatin1String("-8xh100")))
                oneNode.append(run);
        }
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QJsonArray& cases) {
            QFile file(dir.filePath(name));
            file.open(QIODevice::WriteOnly);
            file.write(QJsonDocument(QJsonObject{{QStringLiteral("cases"), cases}}).toJson());
            return file.fileName();
        };
        const QString runs = write(QStringLiteral("runs.json"), small);
        const QString cluster = dir.filePath(QStringLiteral("my-cluster.json"));
        const CliRun calibrated = runCli({QStringLiteral("calibrate"), runs, QStringLiteral("--cluster"),
                                          QStringLiteral("dgx-h100x1"), QStringLiteral("--fit"), QStringLiteral("gemm"),
                                          QStringLiteral("-o"), cluster});
        QCOMPARE(calibrated.exitCode, 0);
        // MosaicML's runs say plain "flash": calibrate notes how it reads the word, once.
        QCOMPARE(calibrated.err.count(QStringLiteral("\"flash\" is read as FlashAttention 1.x")), 1);
        QVERIFY2(calibrated.out.contains(QRegularExpression(QStringLiteral(
                     R"(fitted gpu.achievableFraction\s+0.6 -> 0\.\d+ .*\d+ runs exercise it)"))),
                 qPrintable(calibrated.out));
        QVERIFY2(calibrated.out.contains(QStringLiteral("%1 runs priced, 0 skipped").arg(small.size())),
                 qPrintable(calibrated.out));
        QVERIFY(calibrated.out.contains(QStringLiteral("wrote ") + cluster + QStringLiteral(" (cluster my-cluster)")));

        const QString model = dataFile("gpt2.ts.stripped.onnx");
        const CliRun evaluated = runCli({QStringLiteral("evaluate"), model, QStringLiteral("--cluster"), cluster,
                                         QStringLiteral("--mesh"), QStringLiteral("8"), QStringLiteral("--plan"),
                                         QStringLiteral("dp"), QStringLiteral("--no-history")});
        QCOMPARE(evaluated.exitCode, 0);
        QVERIFY2(evaluated.out.contains(QStringLiteral("cluster    my-cluster: 1 x 8 H100")), qPrintable(evaluated.out));
        const CliRun searched = runCli({QStringLiteral("search"), model, QStringLiteral("--cluster"), cluster,
                                        QStringLiteral("--mesh"), QStringLiteral("2x4"), QStringLiteral("--no-history")});
        QCOMPARE(searched.exitCode, 0);

        const CliRun refused = runCli({QStringLiteral("calibrate"), write(QStringLiteral("one-node.json"), oneNode),
                                       QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"), QStringLiteral("--fit"),
                                       QStringLiteral("inter"), QStringLiteral("-o"), cluster});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QStringLiteral("one-node.json: the runs cannot constrain inter "
                                                     "(interNode.bytesPerSecond): 0 of ")),
                 qPrintable(refused.err));
        const CliRun unknown = runCli({QStringLiteral("calibrate"), runs, QStringLiteral("--cluster"),
                                       QStringLiteral("dgx-h100x1"), QStringLiteral("--fit"), QStringLiteral("gemm,mfu"),
                                       QStringLiteral("-o"), cluster});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QStringLiteral("--fit")), qPrintable(unknown.err));
    }

    void historyIdBeyond32BitsDeletesNothing()
    {
        QTemporaryDir dir;
        const QString history = dir.filePath(QStringLiteral("h.sqlite"));
        const QStringList evaluate = {QStringLiteral("evaluate"), dataFile("gpt2.ts.stripped.onnx"),
                                      QStringLiteral("--mesh"), QStringLiteral("8"), QStringLiteral("--history"),
                                      history, QStringLiteral("--plan")};
        for (const char* plan : {"dp", "megatron", "megatron-sp"})
            QCOMPARE(runCli(evaluate + QStringList{QString::fromUtf8(plan)}).exitCode, 0);
        const QStringList file = {QStringLiteral("--history"), history};
        const CliRun deleted =
            runCli(QStringList{QStringLiteral("history"), QStringLiteral("delete"), QStringLiteral("4294967299")} + file);
        QCOMPARE(deleted.exitCode, 2);
        QVERIFY2(deleted.err.contains(QStringLiteral("4294967299")), qPrintable(deleted.err));
        const CliRun show = runCli(QStringList{QStringLiteral("history"), QStringLiteral("show"), QStringLiteral("3")} + file);
        QCOMPARE(show.exitCode, 0);
        QVERIFY2(show.out.contains(QStringLiteral("plan 3  megatron-sp")), qPrintable(show.out));
    }

    void historyRecordsEvaluateRunsAndShowsDiffsTagsAndExports()
    {
        QTemporaryDir dir;
        const QString history = dir.filePath(QStringLiteral("h.sqlite"));
        const QStringList evaluate = {QStringLiteral("evaluate"), dataFile("llama.ts.stripped.onnx"),
                                      QStringLiteral("--cluster"), QStringLiteral("dgx-h100x1"), QStringLiteral("--mesh"),
                                      QStringLiteral("2x4"), QStringLiteral("--history"), history, QStringLiteral("--plan")};
        QCOMPARE(runCli(evaluate + QStringList{QStringLiteral("megatron")}).exitCode, 0);
        const CliRun dp = runCli(evaluate + QStringList{QStringLiteral("dp")});
        QCOMPARE(dp.exitCode, 0);
        QVERIFY2(dp.err.contains(QStringLiteral("recorded in ")), qPrintable(dp.err));
        const CliRun skipped = runCli(evaluate + QStringList{QStringLiteral("dp"), QStringLiteral("--no-history")});
        QCOMPARE(skipped.exitCode, 0);

        const QStringList historyCommand = {QStringLiteral("history")};
        const QStringList file = {QStringLiteral("--history"), history};
        QCOMPARE(runCli(historyCommand + QStringList{QStringLiteral("tag"), QStringLiteral("2"),
                                                     QStringLiteral("baseline")} + file).exitCode, 0);
        const CliRun list = runCli(historyCommand + QStringList{QStringLiteral("list")} + file);
        QCOMPARE(list.exitCode, 0);
        // Two runs and two plans: --no-history recorded nothing.
        QVERIFY2(list.out.contains(QStringLiteral("evaluate")) && list.out.contains(QStringLiteral("megatron")) &&
                     list.out.contains(QStringLiteral("dp [baseline]")) && list.out.contains(QStringLiteral("2x4 (dp,tp)")),
                 qPrintable(list.out));
        QVERIFY2(!list.out.contains(QRegularExpression(QStringLiteral("\\n\\s+3\\s"))), qPrintable(list.out));

        const CliRun show = runCli(historyCommand + QStringList{QStringLiteral("show"), QStringLiteral("1")} + file);
        QCOMPARE(show.exitCode, 0);
        QVERIFY2(show.out.contains(QStringLiteral("plan 1  megatron")) &&
                     show.out.contains(QStringLiteral("self_attn/q_proj/MatMul")) &&
                     show.out.contains(QStringLiteral("batch,column")),
                 qPrintable(show.out));

        // Megatron splits q_proj by columns on tp; data parallelism splits the batch there:
        // one line for the 4 decoder layers.
        const CliRun diff =
            runCli(historyCommand + QStringList{QStringLiteral("diff"), QStringLiteral("1"), QStringLiteral("2")} + file);
        QCOMPARE(diff.exitCode, 0);
        QVERIFY2(diff.out.contains(QStringLiteral("plan 1 -> plan 2")) &&
                     diff.out.contains(QRegularExpression(
                         QStringLiteral("model/layers.#/self_attn/q_proj/MatMul x4\\s+batch,column\\s+batch,batch"))) &&
                     !diff.out.contains(QStringLiteral("model/layers.0/")) &&
                     diff.out.contains(QStringLiteral("per device, plan 2 minus plan 1")),
                 qPrintable(diff.out));

        const QString exported = dir.filePath(QStringLiteral("dp.json"));
        QCOMPARE(runCli(historyCommand + QStringList{QStringLiteral("export"), QStringLiteral("2"), QStringLiteral("-o"),
                                                     exported} + file).exitCode, 0);
        QFile json(exported);
        QVERIFY(json.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(json.readAll()).object().value(QStringLiteral("name")).toString(),
                 QStringLiteral("dp"));

        const CliRun missing = runCli(historyCommand + QStringList{QStringLiteral("show"), QStringLiteral("9")} + file);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(history) && missing.err.contains(QStringLiteral("no plan 9")), qPrintable(missing.err));
        QCOMPARE(runCli(historyCommand + QStringList{QStringLiteral("delete"), QStringLiteral("2")} + file).exitCode, 0);
        QCOMPARE(runCli(historyCommand + QStringList{QStringLiteral("show"), QStringLiteral("2")} + file).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(CliTest)
#include "CliTest.moc"
