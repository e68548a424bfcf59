#include "windows/StartupOptions.h"

#include "base/Error.h"
#include "cluster/ClusterFile.h"
#include "cluster/MeshText.h"
#include "common/ErrorText.h"
#include "common/ResourceLocator.h"
#include "target/TrainingStack.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <cstdio>
#include <cstdlib>

namespace tapestry {

void StartupOptions::declareOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(
        tr("Plans tensor and data parallelism for large neural networks."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"),
                                 tr("ONNX model or IOPDDL sharding problem (.json, .json.gz) to open."),
                                 tr("[model.onnx | problem.json]"));
    parser.addOption(QCommandLineOption(QStringLiteral("screenshot"),
        tr("Save a PNG image of the main window to <file> once the model has loaded, then quit."),
        tr("file")));
    parser.addOption(QCommandLineOption(QStringLiteral("view"),
                                  tr("Graph view to show first: scope, coarse or folded (the default)."),
                                  tr("view"), QStringLiteral("folded")));
    parser.addOption(QCommandLineOption(QStringLiteral("search"),
                                    tr("Search plans once the model is folded; with --screenshot, wait for the "
                                       "search and open its best plan.")));
    parser.addOption(QCommandLineOption(QStringLiteral("cluster"), tr("Cluster preset for the search."), tr("name")));
    parser.addOption(QCommandLineOption(QStringLiteral("nodes"), tr("Nodes of the cluster preset for the search."),
                                   tr("n")));
    parser.addOption(QCommandLineOption(QStringLiteral("mesh"), tr("Device mesh for the search, e.g. 2x8, pp=8,dp=2,tp=8 or auto (every shape)."),
                                  tr("mesh")));
    parser.addOption(QCommandLineOption(QStringLiteral("target"),
                                    tr("Training stack the search is for: megatron, torchtitan, pytorch or any."),
                                    tr("stack")));
    parser.addOption(QCommandLineOption(QStringLiteral("batch"), tr("Global batch in sequences."), tr("n")));
    parser.addOption(QCommandLineOption(QStringLiteral("seq"), tr("Sequence length in tokens."), tr("n")));
    parser.addOption(QCommandLineOption(QStringLiteral("micro-batch"),
                                        tr("Sequences per data-parallel rank and micro-step for the search."),
                                        tr("n")));
    parser.addOption(QCommandLineOption(QStringLiteral("show"),
                                  tr("Panel to raise after a search: results (the default), inspector, timeline "
                                     "(the inspector's pipeline schedule), traffic (the inspector's ring attention "
                                     "and expert all-to-alls), edit, compare, history (the runs and plans kept) or "
                                     "export (the export dialog of the best plan, over the window)."),
                                  tr("panel"), QStringLiteral("results")));
    parser.addOption(QCommandLineOption(QStringLiteral("expand-block"),
                                    tr("Open the first repeated block in the folded view.")));
    parser.addOption(QCommandLineOption(QStringLiteral("edit"),
                                  tr("After the search, change the strategy of the first node or block position "
                                     "whose name contains <text> in the plan editor."),
                                  tr("text")));
    parser.addOption(QCommandLineOption(QStringLiteral("select"),
                                    tr("Select the first box of the graph view whose name contains <text>."),
                                    tr("text")));
    parser.addOption(QCommandLineOption(QStringLiteral("open-plan"),
                                      tr("Open a plan file for the model once it is folded."), tr("file")));
    parser.addOption(QCommandLineOption(QStringLiteral("zoom"),
                                  tr("With --show timeline, zoom the schedule's time axis <factor> times from its start."),
                                  tr("factor")));
    parser.addOption(QCommandLineOption(QStringLiteral("window-size"), tr("Window size, e.g. 1600x1000."),
                                        tr("size")));
    parser.addOption(QCommandLineOption(QStringLiteral("solve-seconds"),
        tr("Solve the sharding problem for <seconds> once it is open; with --screenshot, grab its window after."),
        tr("seconds")));
}

StartupOptions StartupOptions::parse(const QCoreApplication& app)
{
    QCommandLineParser parser;
    declareOptions(parser);
    parser.process(app);  // --help, --version and unknown options end here
    std::variant<StartupOptions, QString> options = read(parser);
    if (const QString* error = std::get_if<QString>(&options)) {
        std::fprintf(stderr, "%s\n", qPrintable(*error));
        std::exit(2);
    }
    return std::get<StartupOptions>(std::move(options));
}

std::variant<StartupOptions, QString> StartupOptions::fromArguments(const QStringList& arguments)
{
    QCommandLineParser parser;
    declareOptions(parser);
    if (!parser.parse(arguments))
        return parser.errorText();
    return read(parser);
}

std::variant<StartupOptions, QString> StartupOptions::read(const QCommandLineParser& parser)
{
    StartupOptions options;
    options.modelPath = parser.positionalArguments().value(0);
    options.screenshotPath = parser.value(QStringLiteral("screenshot"));
    const QString viewName = parser.value(QStringLiteral("view"));
    const std::optional<GraphViewKind> kind = graphViewKindFromName(viewName);
    if (!kind)
        return tr("Unknown view '%1': use scope, coarse or folded.").arg(viewName);
    options.view = *kind;
    options.search = parser.isSet(QStringLiteral("search"));
    options.cluster = parser.value(QStringLiteral("cluster"));
    if (!options.cluster.isEmpty()) {
        QStringList presets;
        for (const std::string& name : clusterPresetNames(ResourceLocator::clusterPresetDirectory()))
            presets << QString::fromStdString(name);
        if (presets.isEmpty())
            return tr("Unknown cluster preset '%1': no presets are installed.").arg(options.cluster);
        if (!presets.contains(options.cluster))
            return tr("Unknown cluster preset '%1': use %2.").arg(options.cluster, presets.join(QStringLiteral(", ")));
    }
    options.target = parser.value(QStringLiteral("target"));
    if (!options.target.isEmpty() && !trainingStackFromName(options.target.toStdString()))
        return tr("Unknown --target '%1'.").arg(options.target);
    options.mesh = parser.value(QStringLiteral("mesh"));
    if (!options.mesh.isEmpty() && options.mesh != QLatin1String("auto")) {
        try {
            (void)parseMeshText(options.mesh.toStdString());
        } catch (const Error& error) {
            return tr("Bad mesh '%1': %2").arg(options.mesh, ErrorText::problem(error));
        }
    }
    // A positive whole number, 0 when not given; the first malformed one is the error.
    QString error;
    const auto count = [&](const QString& name) {
        if (!parser.isSet(name))
            return 0;
        bool ok = false;
        const int value = parser.value(name).toInt(&ok);
        if ((!ok || value < 1) && error.isEmpty())
            error = tr("--%1 needs a positive whole number.").arg(name);
        return value;
    };
    options.batch = count(QStringLiteral("batch"));
    options.sequence = count(QStringLiteral("seq"));
    options.nodes = count(QStringLiteral("nodes"));
    options.microBatch = count(QStringLiteral("micro-batch"));
    options.solveSeconds = count(QStringLiteral("solve-seconds"));
    if (!error.isEmpty())
        return error;
    const QString show = parser.value(QStringLiteral("show"));
    const QStringList panels{QStringLiteral("results"), QStringLiteral("inspector"), QStringLiteral("timeline"),
                             QStringLiteral("traffic"), QStringLiteral("edit"),   QStringLiteral("compare"),
                             QStringLiteral("history"), QStringLiteral("export")};
    if (!panels.contains(show))
        return tr("Unknown panel '%1': use results, inspector, timeline, traffic, edit, compare, history or export.")
            .arg(show);
    options.showTimeline = show == QLatin1String("timeline");
    options.showTraffic = show == QLatin1String("traffic");
    options.showInspector = options.showTimeline || options.showTraffic || show == QLatin1String("inspector");
    options.planPath = parser.value(QStringLiteral("open-plan"));
    if (parser.isSet(QStringLiteral("zoom"))) {
        bool ok = false;
        options.timelineZoom = parser.value(QStringLiteral("zoom")).toDouble(&ok);
        if (!ok || options.timelineZoom < 1)
            return tr("--zoom needs a factor of at least 1.");
    }
    options.showCompare = show == QLatin1String("compare");
    options.showExport = show == QLatin1String("export");
    options.showHistory = show == QLatin1String("history");
    options.edit = parser.value(QStringLiteral("edit"));
    options.expandBlock = parser.isSet(QStringLiteral("expand-block"));
    options.select = parser.value(QStringLiteral("select"));
    if (parser.isSet(QStringLiteral("window-size"))) {
        const QString size = parser.value(QStringLiteral("window-size"));
        const QStringList parts = size.split(u'x');
        options.windowSize = parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
        if (options.windowSize.isEmpty())
            return tr("Bad window size '%1': write it as 1600x1000.").arg(size);
    }
    return options;
}

}  // namespace tapestry
