#include "GraphViewsPanel.h"
#include "MainWindow.h"
#include "StartupOptions.h"
#include "Translations.h"

#include <QApplication>
#include <QTimer>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationName(QStringLiteral("Tapestry"));
    QApplication::setApplicationVersion(QStringLiteral(TAPESTRY_VERSION));
    tapestry::Translations::install(app);
    const tapestry::StartupOptions options = tapestry::StartupOptions::parse(app);

    tapestry::MainWindow window;
    window.graphViews()->showView(options.view);
    if (!options.screenshotPath.isEmpty()) {
        // Grab once the model is imported and the chosen graph view is drawn, then quit
        // with the outcome; a failed import quits at once.
        const auto grab = [&](bool succeeded) {
            QTimer::singleShot(300, &window, [&, succeeded] {
                const bool saved = window.grab().save(options.screenshotPath);
                QApplication::exit(succeeded && saved ? 0 : 1);
            });
        };
        QObject::connect(&window, &tapestry::MainWindow::loadFinished, &window, [grab](bool succeeded) {
            if (!succeeded)
                grab(false);
        });
        QObject::connect(window.graphViews(), &tapestry::GraphViewsPanel::viewShown, &window,
                         [grab, view = options.view](tapestry::GraphViewKind shown) {
                             if (shown == view)
                                 grab(true);
                         });
    }
    window.show();
    window.openAtStartup(options.modelPath);
    return QApplication::exec();
}
