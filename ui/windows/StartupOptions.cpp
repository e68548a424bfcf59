#include "windows/StartupOptions.h"

#include "base/Error.h"
#include "cluster/MeshText.h"
#include "common/ErrorText.h"
#include "target/TrainingStack.h"

#include <QCommandLineParser>

#include <cstdio>
#include <cstdlib>

namespace tapestry {

StartupOptions StartupOptions::parse(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Plans tensor and data parallelism for large neural networks."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"),
                                 tr("ONNX model or IOPDDL sharding problem (.json, .json.gz) to open."),
                                 tr("[model.onnx | problem.json]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        tr("Save a PNG image of the main window to <file> once the model has loaded, then quit."),
        tr("file"));
    parser.addOption(screenshot);
    const QCommandLineOption view(QStringLiteral("view"),
                                  tr("Graph view to show first: scope, coarse or folded (the default)."),
                                  tr("view"), QStringLiteral("folded"));
    parser.addOption(view);
    const QCommandLineOption search(QStringLiteral("search"),
                                    tr("Search plans once the model is folded; with --screenshot, wait for the "
                                       "search and open its best plan."));
    parser.addOption(search);
    const QCommandLineOption cluster(QStringLiteral("cluster"), tr("Cluster preset for the search."), tr("name"));
    parser.addOption(cluster);
    const QCommandLineOption nodes(QStringLiteral("nodes"), tr("Nodes of the cluster preset for the search."),
                                   tr("n"));
    parser.addOption(nodes);
    const QCommandLineOption mesh(QStringLiteral("mesh"), tr("Device mesh for the search, e.g. 2x8 or pp=8,dp=2,tp=8."),
                                  tr("mesh"));
    parser.addOption(mesh);
    const QCommandLineOption target(QStringLiteral("target"),
                                    tr("Training stack the search is for: megatron, torchtitan, pytorch or any."),
                                    tr("stack"));
    parser.addOption(target);
    const QCommandLineOption batch(QStringLiteral("batch"), tr("Global batch in sequences."), tr("n"));
    parser.addOption(batch);
    const QCommandLineOption sequence(QStringLiteral("seq"), tr("Sequence length in tokens."), tr("n"));
    parser.addOption(sequence);
    const QCommandLineOption microBatch(QStringLiteral("micro-batch"),
                                        tr("Sequences per data-parallel rank and micro-step for the search."),
                                        tr("n"));
    parser.addOption(microBatch);
    const QCommandLineOption show(QStringLiteral("show"),
                                  tr("Panel to raise after a search: results (the default), inspector, timeline "
                                     "(the inspector's pipeline schedule), traffic (the inspector's ring attention "
                                     "and expert all-to-alls), edit, compare or export (the export dialog of the "
                                     "best plan, over the window)."),
                                  tr("panel"), QStringLiteral("results"));
    parser.addOption(show);
    const QCommandLineOption expand(QStringLiteral("expand-block"),
                                    tr("Open the first repeated block in the folded view."));
    parser.addOption(expand);
    const QCommandLineOption edit(QStringLiteral("edit"),
                                  tr("After the search, change the strategy of the first node or block position "
                                     "whose name contains <text> in the plan editor."),
                                  tr("text"));
    parser.addOption(edit);
    const QCommandLineOption select(QStringLiteral("select"),
                                    tr("Select the first box of the graph view whose name contains <text>."),
                                    tr("text"));
    parser.addOption(select);
    const QCommandLineOption openPlan(QStringLiteral("open-plan"),
                                      tr("Open a plan file for the model once it is folded."), tr("file"));
    parser.addOption(openPlan);
    const QCommandLineOption zoom(QStringLiteral("zoom"),
                                  tr("With --show timeline, zoom the schedule's time axis <factor> times from its start."),
                                  tr("factor"));
    parser.addOption(zoom);
    const QCommandLineOption windowSize(QStringLiteral("window-size"), tr("Window size, e.g. 1600x1000."),
                                        tr("size"));
    parser.addOption(windowSize);
    const QCommandLineOption solveSeconds(
        QStringLiteral("solve-seconds"),
        tr("Solve the sharding problem for <seconds> once it is open; with --screenshot, grab its window after."),
        tr("seconds"));
    parser.addOption(solveSeconds);
    parser.process(app);

    StartupOptions options;
    options.modelPath = parser.positionalArguments().value(0);
    options.screenshotPath = parser.value(screenshot);
    const std::optional<GraphViewKind> kind = graphViewKindFromName(parser.value(view));
    if (!kind) {
        std::fprintf(stderr, "%s\n", qPrintable(tr("Unknown view '%1': use scope, coarse or folded.").arg(parser.value(view))));
        std::exit(2);
    }
    options.view = *kind;
    const auto fail = [](const QString& message) {
        std::fprintf(stderr, "%s\n", qPrintable(message));
        std::exit(2);
    };
    options.search = parser.isSet(search);
    options.cluster = parser.value(cluster);
    options.target = parser.value(target);
    if (!options.target.isEmpty() && !trainingStackFromName(options.target.toStdString()))
        fail(tr("Unknown --target '%1'.").arg(options.target));
    options.mesh = parser.value(mesh);
    if (!options.mesh.isEmpty()) {
        try {
            (void)parseMeshText(options.mesh.toStdString());
        } catch (const Error& error) {
            fail(tr("Bad mesh '%1': %2").arg(options.mesh, ErrorText::problem(error)));
        }
    }
    const auto count = [&](const QCommandLineOption& option) {
        if (!parser.isSet(option))
            return 0;
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < 1)
            fail(tr("--%1 needs a positive whole number.").arg(option.names().constFirst()));
        return value;
    };
    options.batch = count(batch);
    options.sequence = count(sequence);
    options.nodes = count(nodes);
    options.microBatch = count(microBatch);
    options.solveSeconds = count(solveSeconds);
    const QStringList panels{QStringLiteral("results"), QStringLiteral("inspector"), QStringLiteral("timeline"),
                             QStringLiteral("traffic"), QStringLiteral("edit"),   QStringLiteral("compare"),
                             QStringLiteral("export")};
    if (!panels.contains(parser.value(show)))
        fail(tr("Unknown panel '%1': use results, inspector, timeline, traffic, edit, compare or export.")
                 .arg(parser.value(show)));
    options.showTimeline = parser.value(show) == QLatin1String("timeline");
    options.showTraffic = parser.value(show) == QLatin1String("traffic");
    options.showInspector =
        options.showTimeline || options.showTraffic || parser.value(show) == QLatin1String("inspector");
    options.planPath = parser.value(openPlan);
    if (parser.isSet(zoom)) {
        bool ok = false;
        options.timelineZoom = parser.value(zoom).toDouble(&ok);
        if (!ok || options.timelineZoom < 1)
            fail(tr("--zoom needs a factor of at least 1."));
    }
    options.showCompare = parser.value(show) == QLatin1String("compare");
    options.showExport = parser.value(show) == QLatin1String("export");
    options.edit = parser.value(edit);
    options.expandBlock = parser.isSet(expand);
    options.select = parser.value(select);
    if (parser.isSet(windowSize)) {
        const QStringList parts = parser.value(windowSize).split(u'x');
        options.windowSize = parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
        if (options.windowSize.isEmpty())
            fail(tr("Bad window size '%1': write it as 1600x1000.").arg(parser.value(windowSize)));
    }
    return options;
}

}  // namespace tapestry
