#include "StartupOptions.h"

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
    parser.addPositionalArgument(QStringLiteral("model"), tr("ONNX model file to open."),
                                 tr("[model.onnx]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        tr("Save a PNG image of the main window to <file> once the model has loaded, then quit."),
        tr("file"));
    parser.addOption(screenshot);
    const QCommandLineOption view(QStringLiteral("view"),
                                  tr("Graph view to show first: scope, coarse or folded (the default)."),
                                  tr("view"), QStringLiteral("folded"));
    parser.addOption(view);
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
    return options;
}

}  // namespace tapestry
