#include "StartupOptions.h"

#include <QCommandLineParser>

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
    parser.process(app);

    StartupOptions options;
    options.modelPath = parser.positionalArguments().value(0);
    options.screenshotPath = parser.value(screenshot);
    return options;
}

}  // namespace tapestry
